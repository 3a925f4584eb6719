import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
} from "./chunk-WT5MUDFS.js";
import "./chunk-3YNLXLX7.js";
import "./chunk-AZRYRF6U.js";
import "./chunk-BLJCPJ76.js";
export {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
};
