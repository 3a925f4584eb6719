// Builds the committed bundles: dist/index.js (the action) and dist/cli.js (the CLI), with
// the code they share split into dist/chunks/, copies the tree-sitter wasm files beside
// them (loaded lazily by the lints) and writes dist/THIRD-PARTY-NOTICES.txt, the licence of
// every package whose code or files went in (scripts/notices.mjs, from esbuild's metafile).
// It first regenerates the schema validators (src/generated/, scripts/validators.mjs).
import { build } from 'esbuild'
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundledPackageDirs, readPackage, renderNotices } from './notices.mjs'
import { writeValidators } from './validators.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// One build, two entries, shared code in chunks: the entries stay small so that `--version`
// and the action's first log line do not wait for the whole gate to load. The banner gives
// CommonJS dependencies the `require` that ESM output lacks.
export function buildOptions(dist) {
  return {
    absWorkingDir: root,
    entryPoints: { index: join(root, 'src/index.ts'), cli: join(root, 'src/cli.ts') },
    outdir: dist,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: {
      js: "import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);"
    },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning'
  }
}

/** Files copied into dist/ as they are (the parser runtime and the grammars). */
export const WASM = [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  'node_modules/tree-sitter-python/tree-sitter-python.wasm',
  'node_modules/tree-sitter-javascript/tree-sitter-javascript.wasm',
  'node_modules/tree-sitter-typescript/tree-sitter-typescript.wasm',
  'node_modules/tree-sitter-typescript/tree-sitter-tsx.wasm'
]

/**
 * Packages whose code reaches the bundle through src/generated/ (ajv's validation code and
 * its run-time helper, written there by scripts/validators.mjs), not through an import.
 */
export const GENERATED_FROM = ['node_modules/ajv']

/** The packages of the bundle's code (from the metafile), of the copied and generated files. */
export function noticePackageDirs(metafile) {
  const copied = WASM.map(file => file.split('/').slice(0, 2).join('/'))
  return [...new Set([...bundledPackageDirs(metafile), ...copied, ...GENERATED_FROM])].sort()
}

/** The notices text for a build's metafile. */
export function noticesFor(metafile) {
  return renderNotices(noticePackageDirs(metafile).map(dir => readPackage(root, dir)))
}

async function main() {
  // The schema validators as code, from the schemas as they are (scripts/validators.mjs).
  const regenerated = writeValidators()
  if (regenerated.length) console.log('regenerated:', regenerated.join(', '))
  const dist = join(root, 'dist')
  rmSync(dist, { recursive: true, force: true })
  mkdirSync(dist, { recursive: true })
  const result = await build(buildOptions(dist))
  // The CLI is run as a program (package.json bin): the shebang must be its first line.
  const cli = join(dist, 'cli.js')
  writeFileSync(cli, '#!/usr/bin/env node\n' + readFileSync(cli, 'utf8'))
  chmodSync(cli, 0o755)

  mkdirSync(join(dist, 'grammars'), { recursive: true })
  for (const file of WASM) {
    const name = file.split('/').pop()
    const target = name === 'web-tree-sitter.wasm' ? join(dist, name) : join(dist, 'grammars', name)
    copyFileSync(join(root, file), target)
  }
  // The gate's own test reporters (src/replay/stream.ts), loaded by the runners from here.
  cpSync(join(root, 'src/reporters'), join(dist, 'reporters'), {
    recursive: true,
    filter: path => !/__pycache__|\.gitignore$/.test(path)
  })
  writeFileSync(join(dist, 'THIRD-PARTY-NOTICES.txt'), noticesFor(result.metafile))
  console.log('bundled:', readdirSync(dist).join(', '))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
