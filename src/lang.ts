// The one table from a file's extension to its language. The lints parse some of these
// languages with tree-sitter, skip-marker lexes four families of them, and the replay maps
// report names to files in all of them; each asks this module, so a new extension is added
// in one place. Pure data and lookups; no I/O.

export type Language =
  | 'python'
  | 'javascript'
  | 'typescript'
  | 'tsx'
  | 'go'
  | 'java'
  | 'kotlin'
  | 'groovy'
  | 'scala'
  | 'ruby'
  | 'rust'
  | 'csharp'
  | 'php'
  | 'swift'

/** Lower-case extension (without the dot) → language. */
const EXTENSIONS: Readonly<Record<string, Language>> = {
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  groovy: 'groovy',
  scala: 'scala',
  rb: 'ruby',
  rs: 'rust',
  cs: 'csharp',
  php: 'php',
  swift: 'swift'
}

/** The language of a path by its extension (case-insensitive), or undefined. */
export function languageOf(path: string): Language | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return undefined
  const ext = name.slice(dot + 1).toLowerCase()
  return Object.hasOwn(EXTENSIONS, ext) ? EXTENSIONS[ext] : undefined
}

/** Languages whose tree-sitter grammar ships with the gate (src/lints/parsers.ts). */
export type ParsedLanguage = Extract<Language, 'python' | 'javascript' | 'typescript' | 'tsx'>

const PARSED: ReadonlySet<Language> = new Set<Language>([
  'python',
  'javascript',
  'typescript',
  'tsx'
])

/** The grammar a path is parsed with, or undefined when none ships for its language. */
export function parsedLanguageOf(path: string): ParsedLanguage | undefined {
  const language = languageOf(path)
  return language !== undefined && PARSED.has(language) ? (language as ParsedLanguage) : undefined
}

/** Lexical families: languages whose strings and comments are spelled alike. */
export type Family = 'python' | 'js' | 'go' | 'java'

const FAMILY: Partial<Readonly<Record<Language, Family>>> = {
  python: 'python',
  javascript: 'js',
  typescript: 'js',
  tsx: 'js',
  go: 'go',
  java: 'java',
  kotlin: 'java'
}

/** The lexical family of a path, or undefined for a language no family covers. */
export function familyOf(path: string): Family | undefined {
  const language = languageOf(path)
  return language === undefined ? undefined : FAMILY[language]
}

/** One pattern for the paths whose extension's language `keep` accepts (case-insensitive). */
function extensionPattern(keep: (language: Language) => boolean): RegExp {
  const exts = Object.entries(EXTENSIONS)
    .filter(([, language]) => keep(language))
    .map(([ext]) => ext)
  return new RegExp(`\\.(?:${exts.join('|')})$`, 'i')
}

/** Any source file the table knows (a report's classname that names one is a file). */
export const SOURCE_PATH: RegExp = extensionPattern(() => true)

/** JavaScript and TypeScript files (the replay looks test titles up in them). */
export const SCRIPT_PATH: RegExp = extensionPattern(language => FAMILY[language] === 'js')

/** Extensions of the JVM languages, with the dot (a Surefire class name → its file). */
export const JVM_EXTENSIONS: readonly string[] = Object.entries(EXTENSIONS)
  .filter(([, language]) => ['java', 'kotlin', 'groovy', 'scala'].includes(language))
  .map(([ext]) => `.${ext}`)
