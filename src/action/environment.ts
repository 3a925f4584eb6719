// The runner environment, read once at the edge: the action's inputs, the event, the
// runner's paths, the GitHub addresses and the toolkit (@actions/core), as one typed object
// handed to run(). Nothing below run() reads process.env or core.getInput, so the whole
// orchestration runs in process in tests, with a recording toolkit and short API timings.
import * as core from '@actions/core'
import type { AnnotationProperties } from '@actions/core'
import { tmpdir } from 'node:os'
import { GateError } from '../errors.js'
import { utcToday } from '../clock.js'
import type { ClientTiming } from '../github/octokit.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import type { Logger } from '../types.js'
import { readInputs } from './inputs.js'
import { safeToolkit } from './log.js'
import type { Inputs } from './inputs.js'

/** The part of @actions/core the action uses once the environment is read. */
export interface Toolkit {
  setSecret(secret: string): void
  info(message: string): void
  warning(message: string, properties?: AnnotationProperties): void
  error(message: string, properties?: AnnotationProperties): void
  notice(message: string, properties?: AnnotationProperties): void
  group<T>(name: string, fn: () => Promise<T>): Promise<T>
  setOutput(name: string, value: string): void
  /** Fails the step (exit code 1) with an error annotation. */
  setFailed(message: string): void
  /** Appends markdown to the job summary file. */
  writeSummary(markdown: string): Promise<void>
}

/** Where the run talks to GitHub, and how long it waits when GitHub asks it to. */
export interface GitHubAccess {
  /** GITHUB_REPOSITORY, "owner/name". */
  repository: string | undefined
  /** GITHUB_API_URL; Octokit's default (api.github.com) when unset. */
  apiUrl: string | undefined
  /** The workflow run's page, linked from the check run. */
  detailsUrl: string | undefined
  /** GITHUB_SERVER_URL, for links to the check run (the PR comment). */
  serverUrl?: string
  /** This run's workflow file, `.github/workflows/gate.yml` (from GITHUB_WORKFLOW_REF). */
  workflowPath?: string
  /** GITHUB_RUN_ID: the run whose artifacts mode: merge reads (src/github/shards.ts). */
  runId?: number
  timing: ClientTiming
}

export interface RunnerEnvironment {
  /** The inputs, or why they are invalid: run() turns that into an error card. */
  inputs: Inputs | GateError
  /** Known even when the inputs are invalid, for the card that says so. */
  fallback: { today: string; policyPath: string }
  /** Values masked in the log (the token). */
  secrets: string[]
  event: { name: string | undefined; path: string | undefined }
  paths: { workspace: string; runnerTemp: string; stepSummary: string | undefined }
  github: GitHubAccess
  toolkit: Toolkit
  /** What the judged children inherit (the gate removes credentials from it). */
  env: NodeJS.ProcessEnv
}

/** The production toolkit: @actions/core, which writes workflow commands and files. */
export function actionsToolkit(): Toolkit {
  return {
    setSecret: secret => core.setSecret(secret),
    info: message => core.info(message),
    warning: (message, properties) => core.warning(message, properties),
    error: (message, properties) => core.error(message, properties),
    notice: (message, properties) => core.notice(message, properties),
    group: (name, fn) => core.group(name, fn),
    setOutput: (name, value) => core.setOutput(name, value),
    setFailed: message => core.setFailed(message),
    writeSummary: async markdown => {
      await core.summary.addRaw(markdown).write()
    }
  }
}

export function toolkitLogger(toolkit: Toolkit): Logger {
  return {
    info: message => toolkit.info(message),
    warning: message => toolkit.warning(message),
    group: (name, fn) => toolkit.group(name, fn)
  }
}

/** Reads everything the action takes from the runner, once. Never throws. */
export function readEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  toolkit: Toolkit = actionsToolkit(),
  cwd: string = process.cwd()
): RunnerEnvironment {
  const input = (name: string): string => inputValue(env, name)
  const workspace = env.GITHUB_WORKSPACE ?? cwd
  let inputs: Inputs | GateError
  try {
    inputs = readInputs(input, workspace)
  } catch (error) {
    inputs = error instanceof GateError ? error : new GateError(String(error))
  }
  return {
    inputs,
    fallback: {
      today: input('today') || utcToday(),
      policyPath: input('policy') || DEFAULT_POLICY_PATH
    },
    secrets: input('token') ? [input('token')] : [],
    event: { name: env.GITHUB_EVENT_NAME || undefined, path: env.GITHUB_EVENT_PATH || undefined },
    paths: {
      workspace,
      runnerTemp: env.RUNNER_TEMP || tmpdir(),
      stepSummary: env.GITHUB_STEP_SUMMARY || undefined
    },
    github: {
      repository: env.GITHUB_REPOSITORY,
      apiUrl: env.GITHUB_API_URL || undefined,
      detailsUrl: detailsUrl(env),
      ...(env.GITHUB_SERVER_URL ? { serverUrl: env.GITHUB_SERVER_URL } : {}),
      ...workflowPathOf(env),
      ...(/^\d+$/.test(env.GITHUB_RUN_ID ?? '') ? { runId: Number(env.GITHUB_RUN_ID) } : {}),
      timing: {}
    },
    toolkit: safeToolkit(toolkit),
    env
  }
}

/** What core.getInput reads: INPUT_<NAME> (spaces as underscores, upper case), trimmed. */
function inputValue(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

/** GITHUB_WORKFLOW_REF is `owner/name/.github/workflows/gate.yml@refs/…`: the file's path. */
function workflowPathOf(env: NodeJS.ProcessEnv): { workflowPath?: string } {
  const ref = env.GITHUB_WORKFLOW_REF ?? ''
  const repo = env.GITHUB_REPOSITORY ?? ''
  if (!repo || !ref.startsWith(`${repo}/`)) return {}
  const path = ref.slice(repo.length + 1).replace(/@.*$/, '')
  return path.startsWith('.github/workflows/') ? { workflowPath: path } : {}
}

function detailsUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env
  return server && repo && runId ? `${server}/${repo}/actions/runs/${runId}` : undefined
}
