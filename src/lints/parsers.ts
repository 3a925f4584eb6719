// Lazy tree-sitter parsers. The wasm runtime and each grammar are loaded the first time a
// lint needs that language, then cached for the life of the process. The files are found
// beside the bundle (dist/web-tree-sitter.wasm, dist/grammars/*.wasm, copied there by
// scripts/bundle.mjs) or, when running from source, in node_modules above this module.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Language, Parser } from 'web-tree-sitter'
import { GateError } from '../errors.js'
import { parsedLanguageOf, type ParsedLanguage } from '../lang.js'

export type LanguageId = ParsedLanguage

/** package in node_modules and wasm file name of each grammar. */
const GRAMMARS: Record<LanguageId, { pkg: string; file: string }> = {
  python: { pkg: 'tree-sitter-python', file: 'tree-sitter-python.wasm' },
  javascript: { pkg: 'tree-sitter-javascript', file: 'tree-sitter-javascript.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-tsx.wasm' }
}

/** The language a path is parsed as, or undefined when no grammar covers it. */
export const languageOf = parsedLanguageOf

let runtime: Promise<void> | undefined
const parsers = new Map<LanguageId, Promise<Parser>>()

/** A cached parser for a language; loads the runtime and the grammar on first use. */
export function parserFor(language: LanguageId): Promise<Parser> {
  let parser = parsers.get(language)
  if (parser === undefined) {
    parser = loadParser(language)
    // A failed load must not be cached: the next run in the same process tries again.
    parser.catch(() => parsers.delete(language))
    parsers.set(language, parser)
  }
  return parser
}

async function loadParser(language: LanguageId): Promise<Parser> {
  runtime ??= initRuntime().catch((error: unknown) => {
    runtime = undefined
    throw error
  })
  await runtime
  const { pkg, file } = GRAMMARS[language]
  const path = locate([`grammars/${file}`, `../grammars/${file}`], join(pkg, file))
  let grammar: Language
  try {
    grammar = await Language.load(new Uint8Array(await readFile(path)))
  } catch (error) {
    throw new GateError(`cannot load the ${language} grammar from ${path}: ${String(error)}`, {
      cause: error
    })
  }
  return new Parser().setLanguage(grammar)
}

async function initRuntime(): Promise<void> {
  const path = locate(
    ['web-tree-sitter.wasm', '../web-tree-sitter.wasm'],
    join('web-tree-sitter', 'web-tree-sitter.wasm')
  )
  try {
    // Handing over the bytes spares emscripten its own search (which looks beside the
    // module that imported it, and that differs between source and bundle).
    const wasmBinary = await readFile(path)
    await Parser.init({ wasmBinary, locateFile: () => path })
  } catch (error) {
    throw new GateError(`cannot start the tree-sitter runtime from ${path}: ${String(error)}`, {
      cause: error
    })
  }
}

/**
 * First existing file among: the given names beside this module (the bundle layout: the
 * lints' code sits in a shared chunk under dist/chunks/, hence the `../` names), then
 * node_modules/<inPackage> in this module's folder and each folder above (source layout).
 */
function locate(besideModule: string[], inPackage: string): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const tried: string[] = []
  for (const name of besideModule) {
    const candidate = join(here, name)
    if (existsSync(candidate)) return candidate
    tried.push(candidate)
  }
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', inPackage)
    if (existsSync(candidate)) return candidate
    tried.push(candidate)
    if (dirname(dir) === dir) break
  }
  throw new GateError(`tree-sitter file not found; looked in ${tried.join(', ')}`)
}
