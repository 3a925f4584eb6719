// After `npm run bundle` (the e2e tier's global setup runs it), dist/ carries the notices
// file, and it is exactly what the bundle's metafile gives (issue 22).
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { expect, it } from 'vitest'
import { buildOptions, noticesFor } from '../scripts/bundle.mjs'

it('dist/THIRD-PARTY-NOTICES.txt is present and lists what the bundle holds', async () => {
  const root = join(import.meta.dirname, '..')
  const shipped = readFileSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.txt'), 'utf8')
  const result = await build({ ...buildOptions(join(tmpdir(), 'og-notices')), write: false })
  expect(shipped).toBe(noticesFor(result.metafile!))
  expect(shipped).toMatch(/^web-tree-sitter@[\d.]+\nLicense: MIT\n/m)
})
