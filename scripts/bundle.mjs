// Builds the two committed bundles: dist/index.js (the action) and dist/cli.js (the CLI),
// and copies the tree-sitter wasm grammars beside them (loaded lazily by the lints).
import { build } from 'esbuild'
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
rmSync(dist, { recursive: true, force: true })
mkdirSync(dist, { recursive: true })

const banner = {
  js: "import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);"
}
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner,
  legalComments: 'none',
  logLevel: 'warning',
  // web-tree-sitter is loaded at run time from dist/ so its wasm sits next to it.
  external: []
}

await build({
  ...common,
  entryPoints: [join(root, 'src/index.ts')],
  outfile: join(dist, 'index.js')
})
await build({
  ...common,
  entryPoints: [join(root, 'src/cli.ts')],
  outfile: join(dist, 'cli.js'),
  banner: { js: '#!/usr/bin/env node\n' + banner.js }
})

const wasm = [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  'node_modules/tree-sitter-python/tree-sitter-python.wasm',
  'node_modules/tree-sitter-javascript/tree-sitter-javascript.wasm',
  'node_modules/tree-sitter-typescript/tree-sitter-typescript.wasm',
  'node_modules/tree-sitter-typescript/tree-sitter-tsx.wasm'
]
mkdirSync(join(dist, 'grammars'), { recursive: true })
for (const file of wasm) {
  const name = file.split('/').pop()
  const target = name === 'web-tree-sitter.wasm' ? join(dist, name) : join(dist, 'grammars', name)
  copyFileSync(join(root, file), target)
}
console.log('bundled:', readdirSync(dist).join(', '))
