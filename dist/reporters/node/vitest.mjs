// The gate's vitest reporter: each test's outcome as vitest's own JUnit reporter records it
// (classname the file relative to the root, name the describe chain and title joined by
// " > "), sent to the gate's descriptor when the test ends, failed suites and files that
// failed to load when their module ends, and an end record when the run is over.
import { relative } from 'node:path'
import { send } from './channel.mjs'
import { aliasOf, configRecord } from './config-record.mjs'

function outcomeOf(task) {
  if (task.result?.state === 'fail') return 'failed'
  if (task.mode === 'skip' || task.mode === 'todo') return 'skipped'
  return 'passed'
}

function chain(task) {
  const names = [task.name]
  for (let s = task.suite; s && s.type === 'suite' && s !== task.file; s = s.suite) {
    names.unshift(s.name)
  }
  return names.join(' > ')
}

/** What vitest resolved (config-record.mjs): its test options, aliases and config's files. */
function vitestConfig(ctx) {
  const root = ctx.config.root
  return configRecord('vitest', root, () => {
    const vite = ctx.vite?.config ?? {}
    const alias = Array.isArray(vite.resolve?.alias) ? vite.resolve.alias : []
    return {
      parts: { test: ctx.config },
      aliases: alias.map(a => aliasOf(a.find, a.replacement, root)),
      deps: vite.configFileDependencies ?? []
    }
  })
}

export default class OutcomeStream {
  sent = new Set()
  count = 0

  onInit(ctx) {
    this.root = ctx.config.root
    send('start', { runner: 'vitest' })
    send('config', vitestConfig(ctx))
  }

  file(task) {
    return relative(this.root, task.file?.filepath ?? task.filepath)
  }

  emit(task, name, outcome) {
    if (this.sent.has(task.id)) return
    this.sent.add(task.id)
    this.count++
    const file = this.file(task)
    send('case', { classname: file, name, suites: [file], outcome })
  }

  onTestCaseResult(testCase) {
    const task = testCase.task
    this.emit(task, chain(task), outcomeOf(task))
  }

  onTestModuleEnd(testModule) {
    const file = testModule.task
    const walk = tasks => {
      for (const task of tasks) {
        if (task.type === 'suite') walk(task.tasks)
        else this.emit(task, chain(task), outcomeOf(task))
      }
    }
    walk(file.tasks)
    // As the JUnit reporter does: a suite with errors (beforeAll/afterAll) is a failed case
    // named after the suite alone, and a file that failed with no tests is one named after it.
    const suites = []
    const collect = tasks => {
      for (const t of tasks)
        if (t.type === 'suite') {
          suites.push(t)
          collect(t.tasks)
        }
    }
    collect(file.tasks)
    for (const suite of suites) if (suite.result?.errors) this.emit(suite, suite.name, 'failed')
    if (file.tasks.length === 0 && file.result?.state === 'fail')
      this.emit(file, file.name, 'failed')
  }

  onTestRunEnd(testModules, errors, reason) {
    for (const m of testModules) this.onTestModuleEnd(m)
    send('end', { count: this.count, status: reason === 'passed' ? 0 : 1, reason })
  }
}
