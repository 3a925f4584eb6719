#!/usr/bin/env node
import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  EXIT
} from "./chunks/chunk-5PBASLSB.js";
import "./chunks/chunk-KK2OQ5NQ.js";
import {
  VERSION
} from "./chunks/chunk-4TO6EUUJ.js";
import {
  logText
} from "./chunks/chunk-AZRYRF6U.js";
import "./chunks/chunk-BLJCPJ76.js";

// src/cli.ts
var argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "version")) {
  process.stdout.write(`${VERSION}
`);
} else {
  try {
    const { main } = await import("./chunks/main-JLK47XB5.js");
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(
      `oracle-gate: ${logText(error instanceof Error ? error.message : String(error))}
`
    );
    process.exitCode = EXIT.error;
  }
}
