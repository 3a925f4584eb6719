// The sandbox's cost per run: the same small pytest suite run by the gate's process wrapper
// directly and inside the bubblewrap layout the gate gives a run (src/exec/sandbox.ts),
// alternating, median of the rounds. Goal: the sandbox adds at most 5 % of the suite's time.
// The set-up is measured for each shape (docs/replay.md, "Shaped like a host"): bwrap's own
// (none), disk, and host when the bench runs as root, interleaved in the same rounds.
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildEntries } from './build.mjs'
import { median, tempDir } from './lib.mjs'

const ROUNDS = 7

function python() {
  for (const py of [process.env.ORACLE_GATE_TEST_PYTHON, 'python3', 'python'].filter(Boolean)) {
    if (spawnSync(py, ['-c', 'import pytest, hypothesis'], { stdio: 'ignore' }).status === 0)
      return py
  }
  throw new Error('no python with pytest and hypothesis')
}

function project(dir) {
  mkdirSync(join(dir, 'tests'), { recursive: true })
  writeFileSync(join(dir, 'pytest.ini'), '[pytest]\npythonpath = .\n')
  writeFileSync(join(dir, 'calc.py'), 'def absval(x):\n    return -x if x < 0 else x\n')
  const props = Array.from(
    { length: 8 },
    (_, i) =>
      `@settings(max_examples=300, deadline=None)\n@given(st.integers())\ndef test_p${i}(x):\n    assert calc.absval(x) >= 0\n`
  ).join('\n\n')
  writeFileSync(
    join(dir, 'tests', 'test_props.py'),
    `import calc\nfrom hypothesis import given, settings, strategies as st\n\n\n${props}`
  )
}

export async function sandboxCost() {
  const { bwrapArgv, hostNet, planLayout, runShell } = await import(await buildEntries())
  const which = spawnSync('bash', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim()
  if (!which)
    return [{ measure: 'sandbox cost', value: 'bwrap not installed', goal: '', ok: false }]
  const dir = tempDir('og-bench-sandbox-')
  const worktree = join(dir, 'project')
  mkdirSync(worktree)
  project(worktree)
  const command = `${python()} -m pytest tests -q -p no:cacheprovider --junitxml=/tmp/junit.xml`
  const env = { ...process.env, PYTHONSAFEPATH: '1' }
  const layout = planLayout({
    env,
    worktree,
    at: join(env.HOME ?? '/root', 'project'),
    hidden: [dir],
    readOnly: [],
    writable: [],
    instrument: ['tests'],
    network: false,
    caches: false
  })
  const once = async wrap => {
    const run = await runShell({
      command,
      cwd: worktree,
      env,
      timeoutSec: 300,
      logFile: join(dir, 'log'),
      ...(wrap ? { wrap } : {})
    })
    if (run.exitCode !== 0)
      throw new Error(`suite failed (${wrap ? 'sandboxed' : 'direct'}): ${run.tail}`)
    return run.durationMs
  }
  const tool = name =>
    spawnSync('bash', ['-c', `PATH=$PATH:/usr/sbin:/sbin command -v ${name}`], {
      encoding: 'utf8'
    }).stdout.trim()
  const tools = {
    setpriv: tool('setpriv'),
    unshare: tool('unshare'),
    ip: tool('ip'),
    nsenter: tool('nsenter')
  }
  const shaped = level => bwrapArgv(which, layout, { level, scratch: dir, net: hostNet(), tools })
  const levels = ['none', 'disk', ...(process.getuid?.() === 0 ? ['host'] : [])]
  const wraps = Object.fromEntries(
    levels.map(l => [l, l === 'none' ? bwrapArgv(which, layout) : shaped(l)])
  )
  const wrap = wraps[levels[levels.length - 1]]
  const trivial = async w =>
    (
      await runShell({
        command: 'true',
        cwd: worktree,
        env,
        timeoutSec: 30,
        logFile: join(dir, 'log'),
        ...(w ? { wrap: w } : {})
      })
    ).durationMs
  const direct = []
  const boxed = []
  const bare = []
  const bareBoxed = []
  const bareBy = Object.fromEntries(levels.map(l => [l, []]))
  await once(null) // warm the interpreter's caches
  for (let i = 0; i < ROUNDS; i++) {
    direct.push(await once(null))
    boxed.push(await once(wrap))
    bare.push(await trivial(null))
    bareBoxed.push(await trivial(wrap))
    for (const l of levels) bareBy[l].push(await trivial(wraps[l]))
  }
  const d = median(direct)
  const b = median(boxed)
  const perRun = median(bareBoxed) - median(bare)
  return [
    {
      measure: 'suite run directly (pytest + hypothesis, 8 properties × 300 examples)',
      value: `${(d / 1000).toFixed(2)} s`,
      goal: ''
    },
    {
      measure: `sandbox set-up per run (\`true\` in the layout − \`true\` directly), shape ${levels[levels.length - 1]}`,
      value: `${perRun.toFixed(0)} ms`,
      goal: ''
    },
    ...levels.map(l => ({
      measure: `sandbox set-up per run, shape ${l} (same rounds)`,
      value: `${(median(bareBy[l]) - median(bare)).toFixed(0)} ms`,
      goal: ''
    })),
    {
      measure: `suite in the sandbox (shape ${levels[levels.length - 1]}) ÷ directly`,
      value: (b / d).toFixed(3),
      goal: '≤ 1.05',
      ok: b / d <= 1.05
    }
  ]
}
