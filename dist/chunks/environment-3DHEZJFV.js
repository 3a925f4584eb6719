import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
} from "./chunk-W27S53FK.js";
import "./chunk-FMI5RTDO.js";
import "./chunk-AZRYRF6U.js";
import "./chunk-BLJCPJ76.js";
export {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
};
