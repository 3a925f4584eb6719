import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  EXIT_CODES
} from "./chunk-GL77JWVN.js";

// src/cli/io.ts
var EXIT = {
  ok: EXIT_CODES.merge,
  /** An invalid ledger or ledger row. */
  refused: EXIT_CODES.policy,
  /** A usage error, or the command could not run. */
  error: EXIT_CODES.error
};

export {
  EXIT
};
