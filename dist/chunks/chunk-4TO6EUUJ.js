import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);

// package.json
var package_default = {
  name: "oracle-gate",
  version: "0.1.0",
  description: "Decides whether a pull request written by a coding agent may merge: the patch may not touch the instrument that measures it.",
  type: "module",
  license: "MIT",
  private: true,
  bin: {
    "oracle-gate": "dist/cli.js"
  },
  engines: {
    node: ">=20"
  },
  scripts: {
    build: "tsc --noEmit -p tsconfig.json",
    bundle: "node scripts/bundle.mjs",
    test: "vitest run",
    "test:unit": "vitest run --project unit",
    "test:e2e": "vitest run --project e2e",
    lint: "eslint . && prettier --check .",
    format: "prettier --write .",
    demo: "node scripts/bundle.mjs && node demo/run-demo.mjs",
    bench: "node scripts/bundle.mjs && node bench/run.mjs",
    all: "npm run format && npm run lint && npm run build && npm run bundle && npm test"
  },
  dependencies: {
    "@actions/core": "3.0.1",
    "@octokit/plugin-retry": "8.1.1",
    "@octokit/plugin-throttling": "11.0.5",
    "@octokit/rest": "22.0.1",
    ajv: "8.20.0",
    picomatch: "4.0.7",
    saxes: "6.0.0",
    "web-tree-sitter": "0.27.2",
    yaml: "2.9.1"
  },
  devDependencies: {
    "@eslint/js": "10.0.1",
    "@types/node": "20.19.43",
    "@types/picomatch": "4.0.3",
    esbuild: "0.28.2",
    eslint: "10.15.0",
    jest: "30.5.2",
    "jest-junit": "17.0.0",
    prettier: "3.10.1",
    "tree-sitter-javascript": "0.25.0",
    "tree-sitter-python": "0.25.0",
    "tree-sitter-typescript": "0.23.2",
    typescript: "6.0.3",
    "typescript-eslint": "8.74.0",
    vitest: "4.1.12"
  },
  overrides: {
    vite: "8.3.4"
  }
};

// src/version.ts
var VERSION = package_default.version;

export {
  VERSION
};
