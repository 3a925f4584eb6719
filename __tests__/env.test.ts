// The children's environment: credentials and the runner's file commands are gone, the
// rest (PATH, HOME, the suite's own variables) stays.
import { describe, expect, it } from 'vitest'
import { childEnv, isRunnerFileCommand } from '../src/exec/env.js'

describe('childEnv', () => {
  const parent: NodeJS.ProcessEnv = {
    PATH: '/usr/bin',
    HOME: '/home/runner',
    GITHUB_ENV: '/runner/_temp/_runner_file_commands/set_env_1',
    GITHUB_PATH: '/runner/_temp/_runner_file_commands/add_path_1',
    GITHUB_OUTPUT: '/runner/_temp/_runner_file_commands/set_output_1',
    GITHUB_STATE: '/runner/_temp/_runner_file_commands/save_state_1',
    GITHUB_STEP_SUMMARY: '/runner/_temp/_runner_file_commands/step_summary_1',
    SOME_OTHER_FILE: '/runner/_temp/_runner_file_commands/future_command_1',
    ACTIONS_RUNTIME_TOKEN: 'runtime-token-value',
    ACTIONS_CACHE_URL: 'https://cache.example/',
    ACTIONS_RESULTS_URL: 'https://results.example/',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.example/',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-token-value',
    ACTIONS_STEP_DEBUG: 'true',
    GITHUB_REPOSITORY: 'o/r',
    GITHUB_WORKSPACE: '/runner/work/r/r',
    RUNNER_TEMP: '/runner/_temp'
  }

  it('drops inherited ORACLE_GATE_* variables (they say the gate is measuring); its own stay', () => {
    const env = childEnv(
      { PATH: '/usr/bin', ORACLE_GATE_TEST_PYTHON: '/usr/bin/python3', ORACLE_GATEWAY: 'x' },
      { ORACLE_GATE_SIDE: 'base' }
    )
    expect(env).toEqual({ PATH: '/usr/bin', ORACLE_GATEWAY: 'x', ORACLE_GATE_SIDE: 'base' })
  })

  it("drops an inherited V8 coverage folder (it says the run is measured); the gate's own stays", () => {
    const env = childEnv(
      {
        PATH: '/usr/bin',
        NODE_V8_COVERAGE: '/tmp/ci-cov',
        NODE_OPTIONS: '--max-old-space-size=4096'
      },
      {}
    )
    expect(env).toEqual({ PATH: '/usr/bin', NODE_OPTIONS: '--max-old-space-size=4096' })
    expect(childEnv({}, { NODE_V8_COVERAGE: '/tmp/own' })).toEqual({ NODE_V8_COVERAGE: '/tmp/own' })
  })

  it('drops the file commands, the runtime and OIDC credentials, keeps the rest', () => {
    const env = childEnv(parent)
    expect(Object.keys(env).sort()).toEqual(
      [
        'ACTIONS_STEP_DEBUG',
        'GITHUB_REPOSITORY',
        'GITHUB_WORKSPACE',
        'HOME',
        'PATH',
        'RUNNER_TEMP'
      ].sort()
    )
  })

  it('drops a file command even when it is passed as an extra', () => {
    expect(childEnv({ PATH: '/bin' }, { GITHUB_ENV: '/tmp/x' })).toEqual({ PATH: '/bin' })
  })

  it('recognises the runner folder on Windows too', () => {
    expect(isRunnerFileCommand('X', 'D:\\a\\_temp\\_runner_file_commands\\set_env_1')).toBe(true)
    expect(isRunnerFileCommand('X', '/tmp/runner_file_commands_notes')).toBe(false)
  })
})
