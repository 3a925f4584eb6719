import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
} from "./chunk-VLQMDGVO.js";
import "./chunk-Z6EMB3GS.js";
import "./chunk-AZRYRF6U.js";
import "./chunk-BLJCPJ76.js";
export {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
};
