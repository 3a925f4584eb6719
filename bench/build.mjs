// Bundles bench/entries.ts once per bench run (esbuild, like the gate's own bundles).
import { build } from 'esbuild'
import { join } from 'node:path'

export async function buildEntries() {
  const outfile = join(import.meta.dirname, '.build', 'entries.mjs')
  await build({
    entryPoints: [join(import.meta.dirname, 'entries.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning'
  })
  return outfile
}
