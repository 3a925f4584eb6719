// Running the action's run() in this process, with the same options and the same result
// shape as runBundledAction: the runner environment is read from the same variables, the
// toolkit records what @actions/core would print (workflow commands on "stdout", outputs,
// the job summary, the step's failure), and the API client waits milliseconds, not seconds,
// where GitHub would ask for seconds. The bundled runs stay as smoke tests of the real toolkit.
import type { AnnotationProperties } from '@actions/core'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readEnvironment } from '../../src/action/environment.js'
import type { Toolkit } from '../../src/action/environment.js'
import { run } from '../../src/action/main.js'
import { runnerEnv, type ActionRun, type ActionRunOptions } from './fake-github.js'

/** The workflow command syntax (what @actions/core's issueCommand writes). */
function command(name: string, message: string, properties: AnnotationProperties = {}): string {
  const escapeData = (s: string) =>
    s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
  const names: Record<string, string> = {
    title: 'title',
    file: 'file',
    startLine: 'line',
    endLine: 'endLine',
    startColumn: 'col',
    endColumn: 'endColumn'
  }
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${names[k] ?? k}=${escapeProperty(String(v))}`)
    .join(',')
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}`
}

interface Recorder {
  toolkit: Toolkit
  lines: string[]
  outputs: Record<string, string>
  summary: string[]
  failed: boolean
}

function recorder(): Recorder {
  const r: Recorder = { lines: [], outputs: {}, summary: [], failed: false, toolkit: {} as Toolkit }
  r.toolkit = {
    setSecret: secret => r.lines.push(`::add-mask::${secret}`),
    info: message => r.lines.push(message),
    warning: (message, properties) => r.lines.push(command('warning', message, properties)),
    error: (message, properties) => r.lines.push(command('error', message, properties)),
    notice: (message, properties) => r.lines.push(command('notice', message, properties)),
    group: async (name, fn) => {
      r.lines.push(`::group::${name}`)
      try {
        return await fn()
      } finally {
        r.lines.push('::endgroup::')
      }
    },
    setOutput: (name, value) => {
      r.outputs[name] = value
    },
    setFailed: message => {
      r.failed = true
      r.lines.push(command('error', message))
    },
    writeSummary: markdown => {
      r.summary.push(markdown)
      return Promise.resolve()
    }
  }
  return r
}

export async function runActionInProcess(options: ActionRunOptions): Promise<ActionRun> {
  const runnerTemp = await mkdtemp(join(tmpdir(), 'og-runner-'))
  const eventPath = join(runnerTemp, 'event.json')
  await writeFile(eventPath, JSON.stringify(options.payload))
  const summaryPath = join(runnerTemp, 'summary.md')
  const env = runnerEnv(options, { runnerTemp, eventPath, summaryPath })
  const r = recorder()
  const environment = readEnvironment(env, r.toolkit, options.workspace)
  environment.github.timing = { msPerSecond: 1, spaceWrites: false }
  await run(environment)
  return {
    code: r.failed ? 1 : 0,
    stdout: r.lines.join('\n') + '\n',
    stderr: '',
    outputs: r.outputs,
    summary: r.summary.join(''),
    runnerTemp
  }
}
