// The sandbox's pure core (src/exec/sandbox.ts): the layout becomes bwrap's argv in an
// order where nothing is shadowed, the network goes only when asked, and the policy with
// the probe decides containment (required fails closed). Plus the command-line variables
// that replace the exported ORACLE_GATE_* (src/replay/run.ts).
import { describe, expect, it } from 'vitest'
import { bwrapArgv, decideContainment, type Layout } from '../src/exec/sandbox.js'
import { GateError } from '../src/errors.js'
import { withGateVars } from '../src/replay/run.js'

const layout = (over: Partial<Layout> = {}): Layout => ({
  mounts: [
    { kind: 'tmpfs', to: '/home/dev' },
    { kind: 'ro', from: '/home/dev/.pyenv', to: '/home/dev/.pyenv' },
    { kind: 'tmpfs', to: '/tmp' },
    { kind: 'symlink', target: 'usr/bin', to: '/bin' },
    { kind: 'ro', from: '/usr', to: '/usr' },
    { kind: 'rw', from: '/tmp/tmp.gate/tmp.report', to: '/tmp/tmp.report' }
  ],
  instrument: ['oracle', '.github/oracle-gate.yml'],
  at: '/home/dev/project',
  worktree: '/tmp/tmp.gate/tmp.abc',
  network: false,
  ...over
})

/** The mount operations of an argv, as [flag, ...operands]. */
function mounts(argv: string[]): string[][] {
  const out: string[][] = []
  const arity: Record<string, number> = {
    '--tmpfs': 1,
    '--symlink': 2,
    '--ro-bind-try': 2,
    '--bind': 2,
    '--proc': 1,
    '--dev': 1,
    '--chdir': 1
  }
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i] ?? ''
    const n = arity[flag] ?? 0
    out.push(argv.slice(i, i + n + 1))
    i += n
  }
  return out
}

describe('bwrapArgv', () => {
  it('makes a PID namespace that dies with the gate, and mounts parents before children', () => {
    const argv = bwrapArgv('/usr/bin/bwrap', layout())
    expect(argv.slice(0, 5)).toEqual([
      '/usr/bin/bwrap',
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net'
    ])
    const targets = mounts(argv)
      .filter(m => ['--tmpfs', '--symlink', '--ro-bind-try', '--bind'].includes(m[0] ?? ''))
      .map(m => m[m.length - 1] ?? '')
    const index = (p: string): number => targets.indexOf(p)
    // HOME's tmpfs before what is mounted in it; the worktree before the instrument over it.
    expect(index('/home/dev')).toBeLessThan(index('/home/dev/.pyenv'))
    expect(index('/home/dev')).toBeLessThan(index('/home/dev/project'))
    expect(index('/tmp')).toBeLessThan(index('/tmp/tmp.report'))
    expect(index('/home/dev/project')).toBeLessThan(index('/home/dev/project/oracle'))
    expect(mounts(argv)).toContainEqual(['--bind', '/tmp/tmp.gate/tmp.abc', '/home/dev/project'])
    expect(mounts(argv)).toContainEqual([
      '--ro-bind-try',
      '/tmp/tmp.gate/tmp.abc/oracle',
      '/home/dev/project/oracle'
    ])
    expect(mounts(argv)).toContainEqual([
      '--ro-bind-try',
      '/tmp/tmp.gate/tmp.abc/.github/oracle-gate.yml',
      '/home/dev/project/.github/oracle-gate.yml'
    ])
    expect(argv.slice(-2)).toEqual(['--chdir', '/home/dev/project'])
    // Nothing of the gate's temp folder but the worktree and the report folder.
    const sources = mounts(argv).flatMap(m =>
      m[0] === '--bind' || m[0] === '--ro-bind-try' ? [m[1]] : []
    )
    expect(sources.filter(s => s?.startsWith('/tmp/tmp.gate')).sort()).toEqual([
      '/tmp/tmp.gate/tmp.abc',
      '/tmp/tmp.gate/tmp.abc/.github/oracle-gate.yml',
      '/tmp/tmp.gate/tmp.abc/oracle',
      '/tmp/tmp.gate/tmp.report'
    ])
  })

  it('keeps the network only when asked', () => {
    expect(bwrapArgv('bwrap', layout({ network: true }))).not.toContain('--unshare-net')
    expect(bwrapArgv('bwrap', layout())).toContain('--unshare-net')
  })
})

describe('decideContainment', () => {
  it('contains when the probe worked, whatever the mode but off', () => {
    const ok = { bin: '/usr/bin/bwrap', failure: null }
    expect(decideContainment('auto', ok)).toEqual({
      bin: '/usr/bin/bwrap',
      report: { kind: 'bwrap', contained: true }
    })
    expect(decideContainment('required', ok).report.contained).toBe(true)
    expect(decideContainment('off', null).report).toEqual({
      kind: 'none',
      contained: false,
      why: 'sandbox: off'
    })
  })

  it('auto runs uncontained with the reason; required is a gate error', () => {
    const missing = { bin: null }
    const broken = { bin: '/usr/bin/bwrap', failure: 'setting up uid map: Permission denied' }
    expect(decideContainment('auto', missing)).toEqual({
      bin: null,
      report: { kind: 'none', contained: false, why: 'bubblewrap (bwrap) is not on PATH' }
    })
    expect(decideContainment('auto', broken).report.why).toMatch(
      /bwrap cannot make a sandbox here \(setting up uid map: Permission denied\).*AppArmor/
    )
    expect(() => decideContainment('required', missing)).toThrow(GateError)
    expect(() => decideContainment('required', broken)).toThrow(/sandbox: required, but bwrap/)
  })
})

describe('withGateVars', () => {
  const vars = { ORACLE_GATE_JUNIT: '/tmp/tmp.x/junit.xml', ORACLE_GATE_SEED: '7' }

  it('sets the variables a command line names as shell variables of that line, unexported', () => {
    const line = withGateVars('JEST_JUNIT_OUTPUT_FILE="$ORACLE_GATE_JUNIT" jest', vars, false)
    expect(line).toBe(
      'ORACLE_GATE_JUNIT=/tmp/tmp.x/junit.xml\nJEST_JUNIT_OUTPUT_FILE="$ORACLE_GATE_JUNIT" jest'
    )
    expect(line).not.toMatch(/export|ORACLE_GATE_SEED/)
  })

  it('leaves a line alone that names none, or when they are exported anyway', () => {
    expect(withGateVars('pytest --junitxml=/tmp/x.xml', vars, false)).toBe(
      'pytest --junitxml=/tmp/x.xml'
    )
    expect(withGateVars('echo $ORACLE_GATE_SEED', vars, true)).toBe('echo $ORACLE_GATE_SEED')
  })
})
