// Figure: the cost of the differential replay (issue 26; src/reporters/python/gate_diff.py
// records, diff_replay.py replays, src/replay/differential.ts runs it) on the generated
// pytest + hypothesis suite of the run-time reach figure (reach.mjs): the vote watched with
// and without the recording (CPU), and the replay's two plain processes against the vote's
// run (wall), the gate's extra time per head.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { median } from './lib.mjs'
import { reachProject, run } from './reach.mjs'

// As differential.ts: each call this many times per process.
const ROUNDS = 3

/** The replay's request from one run's stream, as differential.ts builds it. */
function request(stream, dir, order) {
  const records = stream
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line))
  const session = records.find(r => r.t === 'diffenv')
  const calls = records.filter(r => r.t === 'diff')
  if (!session || calls.length === 0) throw new Error('nothing recorded')
  const ids = calls.map((_, i) => i)
  return {
    calls: calls.length,
    input: JSON.stringify({
      nonce: 'bench',
      root: dir,
      path: session.path,
      env: session.env,
      instrument: ['tests'],
      rounds: ROUNDS,
      order: order === 'reverse' ? ids.reverse() : ids,
      calls: calls.map(({ mod, owner, name, args, glob, cwd, env }) => ({
        mod,
        owner,
        name,
        args,
        glob,
        cwd,
        env
      }))
    }),
    exe: session.exe
  }
}

/** One replay process; its wall time in seconds. */
function replay(exe, script, dir, input) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(exe, [script], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] })
    let out = ''
    child.stdout.on('data', chunk => (out += chunk))
    child.stdin.end(input)
    child.on('error', reject)
    child.on('close', code => {
      if (code !== 0 || !out.includes('"end"')) reject(new Error(`replay exited ${code}`))
      else resolve((performance.now() - started) / 1000)
    })
  })
}

export async function differentialCost() {
  const project = reachProject('gate_diff.py', 'og-bench-diff-')
  const { reporters, dir, python } = project
  const plan = diff => project.plan(diff ? { diff: true } : {})
  try {
    const off = [],
      on = [],
      replays = []
    let calls = 0
    const script = join(reporters, 'diff_replay.py')
    // Five rounds, alternating, medians: the machine is shared.
    for (let i = 0; i < 5; i++) {
      off.push(await run(python, dir, reporters, plan(false)))
      const recorded = await run(python, dir, reporters, plan(true))
      on.push(recorded)
      const forward = request(recorded.stream, dir, 'forward')
      const backward = request(recorded.stream, dir, 'reverse')
      calls = forward.calls
      replays.push(
        (await replay(forward.exe, script, dir, forward.input)) +
          (await replay(backward.exe, script, dir, backward.input))
      )
    }
    const cpu = runs => median(runs.map(r => r.cpu))
    const wall = runs => median(runs.map(r => r.wall))
    const recording = cpu(on) / cpu(off)
    const extra = median(replays) / wall(on)
    return [
      { measure: 'calls recorded and replayed', value: calls, digits: 0, goal: '' },
      {
        measure: 'recording ÷ watched without it, CPU',
        value: recording,
        goal: '≤ 1.10',
        ok: recording <= 1.1
      },
      { measure: 'the two replays: wall (s)', value: median(replays), digits: 2, goal: '' },
      {
        measure: 'the two replays ÷ the recorded vote, wall',
        value: extra,
        goal: '≤ 0.50',
        ok: extra <= 0.5
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
