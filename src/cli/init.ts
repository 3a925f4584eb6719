// `oracle-gate init`: writes a commented starter policy. It never overwrites without --force,
// because the policy is the instrument's charter and must change only in a reviewed PR.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { describeProject, detectRepository, renderStarter } from '../policy/starter.js'
import { EXIT, type Io } from './io.js'

export async function runInit(argv: string[], io: Io): Promise<number> {
  let values
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: { repo: { type: 'string' }, policy: { type: 'string' }, force: { type: 'boolean' } }
    }).values
  } catch (error) {
    io.stderr.write(`oracle-gate init: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.error
  }
  const repo = resolve(io.cwd, values.repo ?? '.')
  const target = resolve(repo, values.policy ?? DEFAULT_POLICY_PATH)
  if (existsSync(target) && !values.force) {
    io.stderr.write(`oracle-gate init: ${target} exists; pass --force to overwrite\n`)
    return EXIT.error
  }
  await mkdir(dirname(target), { recursive: true })
  const project = detectRepository(repo)
  await writeFile(target, renderStarter(project))
  io.stderr.write(
    `wrote ${target} (detected: ${describeProject(project)})\n` +
      'Review the suite command and setup, then commit it in a PR of its own: the gate reads the policy from the merge base.\n' +
      "The suite command should run the voting tests only; the patch's own tests run apart, as diagnostics.\n"
  )
  return EXIT.ok
}
