import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  EXIT_CODES
} from "./chunk-6UJ6F6YO.js";

// src/cli/io.ts
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
var EXIT = {
  ok: EXIT_CODES.merge,
  /** An invalid ledger or ledger row. */
  refused: EXIT_CODES.policy,
  /** A usage error, or the command could not run. */
  error: EXIT_CODES.error
};
function parseFlags(argv, options) {
  try {
    return { values: parseArgs({ args: argv, strict: true, options }).values };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
function folderProblem(dir) {
  try {
    return statSync(dir).isDirectory() ? null : `${dir} is not a folder`;
  } catch {
    return `no such folder: ${dir}`;
  }
}

export {
  EXIT,
  parseFlags,
  folderProblem
};
