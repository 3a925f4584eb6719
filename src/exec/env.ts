// The environment a suite, setup or seeds child receives: the parent's, minus every
// credential. The patch's code runs in these children, so anything left here is handed to
// the author of the patch.

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

const CREDENTIAL_PATTERNS = [/^ACTIONS_ID_TOKEN_REQUEST_/, /^INPUT_.*TOKEN/i, /^GITHUB_.*TOKEN$/i]

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
 * Builds a child environment from `parent` with credentials removed: by name, and any
 * variable whose value equals (or contains) a known secret value, whatever it is called.
 */
export function childEnv(
  parent: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
  secrets: readonly string[] = []
): NodeJS.ProcessEnv {
  const known = [...secretValues(parent), ...secrets.filter(s => s.length >= 8)]
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries({ ...parent, ...extra })) {
    if (value === undefined || isCredentialName(name)) continue
    if (known.some(secret => value.includes(secret))) continue
    env[name] = value
  }
  return env
}
