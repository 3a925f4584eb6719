#!/usr/bin/env node
import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  EXIT
} from "./chunks/chunk-OXMWOBVU.js";
import "./chunks/chunk-6UJ6F6YO.js";
import {
  VERSION
} from "./chunks/chunk-4TO6EUUJ.js";
import {
  logText
} from "./chunks/chunk-Q2EL2VEE.js";
import "./chunks/chunk-BLJCPJ76.js";

// src/cli.ts
var argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "version")) {
  process.stdout.write(`${VERSION}
`);
} else {
  try {
    const { main } = await import("./chunks/main-35O22YPR.js");
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(
      `oracle-gate: ${logText(error instanceof Error ? error.message : String(error))}
`
    );
    process.exitCode = EXIT.error;
  }
}
