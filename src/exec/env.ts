// The environment a suite, setup or seeds child receives: the parent's, minus every
// credential and every runner file command. The patch's code runs in these children, so
// anything left here is handed to the author of the patch: a token to act with, or the
// files through which a step talks to the runner (GITHUB_ENV and GITHUB_PATH change the
// environment of every later step, GITHUB_OUTPUT and GITHUB_STATE set outputs and state,
// GITHUB_STEP_SUMMARY adds to the job summary beside the gate's card).

const CREDENTIAL_NAMES = new Set([
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'INPUT_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ORACLE_GATE_TOKEN'
])

const CREDENTIAL_PATTERNS = [
  /^ACTIONS_ID_TOKEN_REQUEST_/,
  /^ACTIONS_.*(TOKEN|URL)$/,
  /^INPUT_.*TOKEN/i,
  /^GITHUB_.*TOKEN$/i
]

/** The runner's file commands: a child writing to them speaks for the job. */
const FILE_COMMAND_NAMES = new Set([
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_OUTPUT',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY'
])

/** Where the runner keeps those files; any variable pointing there goes too. */
const FILE_COMMAND_DIR = /[\\/]_runner_file_commands([\\/]|$)/

/** A variable the children never see: the runner's file commands, whatever they are called. */
export function isRunnerFileCommand(name: string, value: string | undefined): boolean {
  return FILE_COMMAND_NAMES.has(name) || (value !== undefined && FILE_COMMAND_DIR.test(value))
}

/** Values that must not appear anywhere in the child's environment. */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>()
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= 8 && isCredentialName(name)) values.add(value)
  }
  return [...values]
}

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAMES.has(name) || CREDENTIAL_PATTERNS.some(p => p.test(name))
}

/**
 * Inherited variables that tell a child it is measured: the gate's own, and a coverage
 * folder (NODE_V8_COVERAGE) the machine's CI may have set for the gate itself; the gate's
 * coverage run sets its own (src/evidence/js-coverage.ts).
 */
function measuring(name: string): boolean {
  return name.startsWith('ORACLE_GATE_') || name === 'NODE_V8_COVERAGE'
}

/**
 * Builds a child environment from `parent` with credentials removed (by name, and any
 * variable whose value equals or contains a known secret value, whatever it is called),
 * without the runner's file-command variables, and without any inherited variable that says
 * the gate is measuring (`ORACLE_GATE_*`, NODE_V8_COVERAGE; the gate sets its own where the
 * contract gives them, through `extra` or later).
 */
export function childEnv(
  parent: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
  secrets: readonly string[] = []
): NodeJS.ProcessEnv {
  const known = [...secretValues(parent), ...secrets.filter(s => s.length >= 8)]
  const env: NodeJS.ProcessEnv = {}
  const inherited = Object.entries(parent).filter(([name]) => !measuring(name))
  for (const [name, value] of [...inherited, ...Object.entries(extra)]) {
    if (value === undefined || isCredentialName(name) || isRunnerFileCommand(name, value)) continue
    if (known.some(secret => value.includes(secret))) continue
    env[name] = value
  }
  return env
}
