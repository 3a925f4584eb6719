import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
} from "./chunk-3U73OOS6.js";
import "./chunk-CRRA73CF.js";
import "./chunk-AZRYRF6U.js";
import "./chunk-BLJCPJ76.js";
export {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
};
