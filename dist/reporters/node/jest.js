// The gate's jest reporter: each test file's outcomes, as jest-junit records them with the
// gate's settings (JEST_JUNIT_ENV in src/replay/ids.ts: classname the describe chain joined
// by " > ", name the title, file relative to the working directory), sent to the gate's
// descriptor when the file's results come in, and an end record when the run is over.
import { realpathSync } from 'node:fs'
import { relative } from 'node:path'
import process from 'node:process'
import { send } from './channel.mjs'

function outcomeOf(status) {
  if (status === 'failed' || status === 'error') return status
  return status === 'pending' ? 'skipped' : 'passed'
}

export default class OutcomeStream {
  constructor() {
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
    send('end', { count: this.count, status: results.success ? 0 : 1 })
  }
}
