// The judge list: LLM client libraries and public LLM API hosts. A test that imports one
// of these, or names one of these hosts in a string, asks a model whether the code is
// right; its verdict is neither reproducible nor independent of the agent that wrote the
// patch. Pure data and matching; no I/O.
import type { Policy } from '../policy/types.js'
import type { Literal, ModuleRef } from './extract.js'

/** Python modules (a trailing `*` matches any module name with that prefix). */
const DEFAULT_PYTHON_JUDGES: readonly string[] = [
  'openai',
  'anthropic',
  'google.generativeai',
  'google.genai',
  'vertexai',
  'cohere',
  'mistralai',
  'groq',
  'litellm',
  'langchain*',
  'llama_index',
  'ollama'
]

/** npm packages (`@scope/*` matches the whole scope). */
const DEFAULT_NPM_JUDGES: readonly string[] = [
  'openai',
  '@anthropic-ai/sdk',
  '@google/generative-ai',
  '@google/genai',
  'ai',
  '@ai-sdk/*',
  'ollama',
  'langchain',
  '@langchain/*',
  'cohere-ai',
  '@mistralai/mistralai',
  'groq-sdk',
  'llamaindex'
]

/** Public API hosts; a subdomain of one matches too (`myres.openai.azure.com`). */
export const DEFAULT_JUDGE_HOSTS: readonly string[] = [
  'api.openai.com',
  'openai.azure.com',
  'api.anthropic.com',
  'generativelanguage.googleapis.com',
  'aiplatform.googleapis.com',
  'api.cohere.ai',
  'api.cohere.com',
  'api.mistral.ai',
  'api.groq.com',
  'api.together.xyz',
  'api.fireworks.ai',
  'api.deepseek.com',
  'api.perplexity.ai',
  'openrouter.ai'
]

export interface JudgeList {
  python: readonly string[]
  npm: readonly string[]
  hosts: readonly string[]
}

/**
 * The effective list. A `lints.judge_modules` entry applies to both ecosystems, and also
 * as a host when it looks like one (dotted labels, no `/`, `*` or `@`).
 */
export function judgeList(lints: Policy['lints']): JudgeList {
  const extra = lints.judge_modules.map(e => e.trim()).filter(e => e !== '')
  const hosts = extra.filter(looksLikeHost).map(h => h.toLowerCase())
  if (lints.judge_modules_replace) return { python: extra, npm: extra, hosts }
  return {
    python: [...DEFAULT_PYTHON_JUDGES, ...extra],
    npm: [...DEFAULT_NPM_JUDGES, ...extra],
    hosts: [...DEFAULT_JUDGE_HOSTS, ...hosts]
  }
}

function looksLikeHost(entry: string): boolean {
  const labels = entry.split('.')
  return labels.length >= 2 && labels.every(l => l.length > 0 && [...l].every(isHostChar))
}

function isHostChar(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '-'
}

export interface JudgeHit {
  /** What was found: the module as imported, or the host. */
  what: string
  /** The judge list entry it matched. */
  entry: string
  kind: 'import' | 'host'
  line: number
}

/** Judge imports and judge hosts in one file's facts. */
export function judgeHits(
  facts: { imports: readonly ModuleRef[]; literals: readonly Literal[] },
  list: JudgeList
): JudgeHit[] {
  const hits: JudgeHit[] = []
  for (const ref of facts.imports) {
    const match =
      ref.ecosystem === 'python' ? matchPython(ref, list.python) : matchNpm(ref.module, list.npm)
    if (match) hits.push({ what: match.what, entry: match.entry, kind: 'import', line: ref.line })
  }
  for (const literal of facts.literals) {
    const host = findHost(literal.value, list.hosts)
    if (host) hits.push({ what: host, entry: host, kind: 'host', line: literal.line })
  }
  return hits
}

/** `import google.genai`, `from google import genai` and `from google.genai import x` all name google.genai. */
function matchPython(
  ref: ModuleRef,
  entries: readonly string[]
): { what: string; entry: string } | undefined {
  const candidates = [ref.module, ...(ref.names ?? []).map(n => `${ref.module}.${n}`)]
  for (const candidate of candidates) {
    for (const entry of entries) {
      const hit = entry.endsWith('*')
        ? candidate.startsWith(entry.slice(0, -1))
        : candidate === entry || candidate.startsWith(`${entry}.`)
      if (hit) return { what: candidate, entry }
    }
  }
  return undefined
}

function matchNpm(
  module: string,
  entries: readonly string[]
): { what: string; entry: string } | undefined {
  for (const entry of entries) {
    const hit = entry.endsWith('*')
      ? module.startsWith(entry.slice(0, -1))
      : module === entry || module.startsWith(`${entry}/`)
    if (hit) return { what: module, entry }
  }
  return undefined
}

/**
 * The first judge host named in a string as a host: bounded by the start or a character
 * that cannot be part of a host name, so `api.openai.com.example` and `xapi.openai.com`
 * do not count while `https://api.openai.com/v1` and `eu.api.openai.com` do.
 */
export function findHost(value: string, hosts: readonly string[]): string | undefined {
  if (!value.includes('.')) return undefined
  const lower = value.toLowerCase()
  for (const host of hosts) {
    for (let at = lower.indexOf(host); at >= 0; at = lower.indexOf(host, at + 1)) {
      const before = at === 0 ? '' : (lower[at - 1] as string)
      const after = lower[at + host.length] ?? ''
      if (
        (before === '' || before === '.' || !isHostChar(before)) &&
        (after === '' || (after !== '.' && !isHostChar(after)))
      ) {
        return host
      }
    }
  }
  return undefined
}

/**
 * Fixed strings at least one of which a file must contain to hold a judge: a cheap
 * pre-filter (git grep) before parsing the base's unchanged tests. Short names are
 * searched quoted, or nearly every file would match.
 */
export function prefilterStrings(list: JudgeList): string[] {
  const out = new Set<string>()
  for (const entry of list.python) {
    const top = stripGlob(entry).split('.')[0] as string
    if (top.length >= 4) out.add(top)
    else for (const form of ['import ', 'from ', "'", '"']) out.add(form + top)
  }
  for (const entry of list.npm) {
    const name = stripGlob(entry)
    if (name.length >= 4) out.add(name)
    else for (const q of ["'", '"', '`']) out.add(q + name)
  }
  for (const host of list.hosts) out.add(host)
  return [...out].filter(s => s !== '')
}

function stripGlob(entry: string): string {
  return entry.endsWith('/*')
    ? entry.slice(0, -1)
    : entry.endsWith('*')
      ? entry.slice(0, -1)
      : entry
}
