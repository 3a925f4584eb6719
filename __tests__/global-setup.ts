// Bundles dist/ from the current sources once, before any test file runs: several tests
// execute dist/index.js and dist/cli.js as a user would, and must see the code under test.
// (CI checks separately, before the tests, that the committed dist/ was already fresh.)
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

export default function setup(): void {
  const root = join(import.meta.dirname, '..')
  execFileSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: 'pipe' })
}
