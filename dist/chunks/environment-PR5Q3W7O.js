import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
} from "./chunk-MYD6JCPR.js";
import "./chunk-Q5RLA3X2.js";
import "./chunk-AZRYRF6U.js";
import "./chunk-BLJCPJ76.js";
export {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
};
