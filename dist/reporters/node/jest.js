// The gate's jest reporter: each test file's outcomes, as jest-junit records them with the
// gate's settings (JEST_JUNIT_ENV in src/replay/ids.ts: classname the describe chain joined
// by " > ", name the title, file relative to the working directory), sent to the gate's
// descriptor when the file's results come in, and an end record when the run is over.
import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, relative } from 'node:path'
import process from 'node:process'
import { send } from './channel.mjs'
import { aliasOf, configRecord } from './config-record.mjs'

function outcomeOf(status) {
  if (status === 'failed' || status === 'error') return status
  return status === 'pending' ? 'skipped' : 'passed'
}

/** The files jest's (CommonJS) config file loaded, itself included: its require graph. */
function configGraph(cwd) {
  const cache = createRequire(import.meta.url).cache
  const out = new Set()
  const walk = m => {
    if (!m || out.has(m.filename) || m.filename.includes('/node_modules/')) return
    out.add(m.filename)
    for (const child of m.children ?? []) walk(child)
  }
  for (const m of Object.values(cache))
    if (/^jest\.config\./.test(basename(m?.filename ?? '')) && m.filename.startsWith(cwd)) walk(m)
  return [...out]
}

/** What jest resolved (config-record.mjs): global and project options, the mappers apart. */
function jestConfig(globalConfig, contexts, cwd) {
  const root = globalConfig?.rootDir ?? cwd
  return configRecord('jest', root, () => {
    const parts = { global: globalConfig ?? {} }
    const aliases = []
    ;[...(contexts ?? [])].forEach((c, i) => {
      const { moduleNameMapper = [], ...project } = c?.config ?? {}
      parts[`project${i}`] = project
      for (const [find, to] of moduleNameMapper) aliases.push(aliasOf(find, to, root))
    })
    return { parts, aliases, deps: configGraph(cwd) }
  })
}

export default class OutcomeStream {
  constructor(globalConfig) {
    this.globalConfig = globalConfig
    this.count = 0
    this.cwd = realpathSync(process.cwd())
  }

  onRunStart() {
    send('start', { runner: 'jest' })
  }

  case(fields) {
    this.count++
    send('case', { suites: [], ...fields })
  }

  onTestFileResult(test, result) {
    const file = relative(this.cwd, result.testFilePath)
    if (result.testResults.length === 0) {
      // jest-junit: a file that failed to run is one erroring case named after the file.
      this.case({ classname: 'Test suite failed to run', name: file, file, outcome: 'error' })
      return
    }
    for (const tc of result.testResults)
      this.case({
        classname: tc.ancestorTitles.join(' > '),
        name: tc.title,
        file,
        outcome: outcomeOf(tc.status)
      })
    if (result.testExecError != null)
      this.case({
        classname: '',
        name: "Test execution failure: could be caused by test hooks like 'afterAll'.",
        file,
        outcome: 'failed'
      })
  }

  onRunComplete(contexts, results) {
    send('config', jestConfig(this.globalConfig, contexts, this.cwd))
    send('end', { count: this.count, status: results.success ? 0 : 1 })
  }
}
