import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
} from "./chunk-S4C7YUXD.js";
import "./chunk-2ABF3BYC.js";
import "./chunk-2BXU6TTU.js";
import "./chunk-4PLJCNFX.js";
export {
  actionsToolkit,
  readEnvironment,
  toolkitLogger
};
