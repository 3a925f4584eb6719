import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  VERSION
} from "./chunks/chunk-4TO6EUUJ.js";
import "./chunks/chunk-BLJCPJ76.js";

// src/index.ts
process.stdout.write(`oracle-gate ${VERSION}
`);
try {
  const [{ run }, { readEnvironment }] = await Promise.all([
    import("./chunks/main-ZDHJLI5L.js"),
    import("./chunks/environment-TXIZWWV4.js")
  ]);
  await run(readEnvironment());
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(
    `::error::oracle-gate failed: ${message.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}
`
  );
  process.exitCode = 1;
}
