// The git manager's long-lived readers (src/git/batch.ts through src/git/git.ts): one
// `git cat-file --batch` per run must return exactly the bytes a `git cat-file blob` per
// read returns, for every name a tree can hold (newlines, a final carriage return, quotes,
// unicode, leading dashes, spaces, names that look like protocol lines), for missing
// objects, binary and large blobs, and for many reads at once; it must end when the run
// ends, the error path included; and git.ts must take its environment from its owner only.
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { readBlobs } from '../src/git/blobs.js'
import { Git } from '../src/git/git.js'
import {
  emptyDiagnostics,
  emptySeeds,
  emptyTransitions,
  emptyVotes
} from '../src/verdict/scorecard.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

/** Names git stores verbatim, each with bytes of its own (a mix-up shows as wrong bytes). */
const ODD_NAMES = [
  'plain.txt',
  'new\nline.txt',
  'new', // the first half of the name above, as a line would cut it
  'ends-with-cr\r',
  'ends-with-cr', // what a line reader that drops the CR would ask for
  'mid\rcr.txt',
  'quote"d\'.txt',
  'back\\slash.txt',
  'tab\there.txt',
  ' leading and trailing space ',
  'ünïcödé/文件 名.txt',
  'emoji-😀.txt',
  '-rf',
  '--batch',
  'x blob 5', // looks like an answer header
  'plain.txt missing', // looks like the answer for a missing plain.txt
  'dir/-n'
]

const BINARY = Buffer.concat([Buffer.from([0, 10, 13, 0, 255, 254]), randomBytes(70_000)])
const LARGE = randomBytes(6 * 1024 * 1024 + 3)

let repo: TestRepo
let head: string

/** The reference: one `git cat-file blob` process for one read (argv, no line protocol). */
function singleRead(spec: string): Buffer | null {
  try {
    return execFileSync('git', ['cat-file', 'blob', spec], {
      cwd: repo.dir,
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'ignore']
    })
  } catch {
    return null
  }
}

function oidOf(spec: string): string {
  return execFileSync('git', ['rev-parse', '--verify', spec], {
    cwd: repo.dir,
    encoding: 'utf8'
  }).trim()
}

/** Pids of `git cat-file --batch[-check]` processes whose working directory is `dir`. */
function batchProcesses(dir: string): number[] {
  const want = realpathSync(dir)
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (!argv.includes('cat-file') || !argv.some(a => a.startsWith('--batch'))) continue
      if (readlinkSync(`/proc/${entry}/cwd`) === want) pids.push(Number(entry))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids
}

beforeAll(() => {
  repo = new TestRepo('og-batch-')
  const files: Record<string, string | Buffer> = {
    'bin/blob.bin': BINARY,
    'big/large.bin': LARGE,
    'empty.txt': '',
    'no-newline-at-end.txt': 'last line',
    '.github/oracle-gate.yml': policyYaml(),
    'oracle/properties/test_a.py': 'def test_a():\n    assert True\n'
  }
  ODD_NAMES.forEach((name, i) => (files[name] = `content ${i} of ${JSON.stringify(name)}\n`))
  repo.write(files)
  repo.commit('base')
  // A submodule's entry: a commit object id that is not in this repository.
  repo.git('update-index', '--add', '--cacheinfo', `160000,${'ab'.repeat(20)},sub`)
  repo.git('commit', '-q', '-m', 'gitlink')
  head = repo.sha()
})

afterAll(() => repo.cleanup())

describe('the batch reader returns what single reads return', () => {
  it('for every odd name, by rev:path and by object id', async () => {
    const git = new Git(repo.dir, process.env)
    try {
      for (const name of [...ODD_NAMES, 'empty.txt', 'no-newline-at-end.txt']) {
        const spec = `${head}:${name}`
        const expected = singleRead(spec)
        expect(expected, name).not.toBeNull()
        expect(await git.showFile(head, name), name).toEqual(expected)
        expect((await readBlobs(git, [spec])).get(spec), name).toEqual(expected)
        const oid = oidOf(spec)
        expect((await git.readObject(oid))?.bytes, name).toEqual(expected)
        expect(await git.objectId(head, name), name).toBe(oid)
        expect(await git.objectInfo(spec), name).toEqual({
          oid,
          type: 'blob',
          size: expected?.length
        })
      }
    } finally {
      await git.close()
    }
  })

  it('for binary and large blobs, byte for byte', async () => {
    const git = new Git(repo.dir, process.env)
    try {
      const blobs = await readBlobs(git, [`${head}:bin/blob.bin`, `${head}:big/large.bin`])
      expect(blobs.get(`${head}:bin/blob.bin`)?.equals(BINARY)).toBe(true)
      expect(blobs.get(`${head}:big/large.bin`)?.equals(LARGE)).toBe(true)
      expect(
        (await git.showFile(head, 'big/large.bin'))?.equals(
          singleRead(`${head}:big/large.bin`) ?? Buffer.alloc(0)
        )
      ).toBe(true)
    } finally {
      await git.close()
    }
  })

  it('for missing objects, trees and submodule entries', async () => {
    const git = new Git(repo.dir, process.env)
    try {
      const absentOid = 'f'.repeat(40)
      const requests = [
        `${head}:no/such/file`,
        `${head}:new`.replace(':new', ':new\nnope'), // a newline name that does not exist
        `${head}:ends-with-cr-not\r`,
        absentOid,
        `${head}:sub`,
        `${head}:ünïcödé`,
        'not-a-revision:plain.txt'
      ]
      const blobs = await readBlobs(git, requests)
      for (const request of requests) expect(blobs.get(request), request).toBeNull()
      expect(await git.showFile(head, 'no/such/file')).toBeNull()
      expect(await git.readObject(absentOid)).toBeNull()
      expect(await git.objectInfo(`${head}:no/such/file`)).toBeNull()
      expect(await git.objectId(head, 'no/such/file')).toBeNull()
      // A tree is no file: as before, asking for its bytes is an error, not null.
      await expect(git.showFile(head, 'ünïcödé')).rejects.toThrow(/a tree, not a file/)
      expect(await git.objectId(head, 'ünïcödé')).toBe(oidOf(`${head}:ünïcödé`))
      // The submodule entry names a commit that is not here: rev-parse still names it.
      expect(await git.objectId(head, 'sub')).toBe('ab'.repeat(20))
      // A read after a missing one is still answered in order.
      expect(await git.showFile(head, 'plain.txt')).toEqual(singleRead(`${head}:plain.txt`))
    } finally {
      await git.close()
    }
  })

  it('for many reads at once, each answer to its own request', async () => {
    const git = new Git(repo.dir, process.env)
    try {
      const names = [...ODD_NAMES, 'bin/blob.bin', 'no/such', 'sub']
      // The large blob first and last (more would only make the test slow), the rest mixed.
      const specs = Array.from({ length: 400 }, (_, i) =>
        i === 0 || i === 399 ? `${head}:big/large.bin` : `${head}:${names[(i * 7) % names.length]}`
      )
      // Every name comes up (7 and the count share no factor), each read once for reference.
      const expected = new Map(
        [...new Set(specs)].map(s => [s, s.endsWith(':sub') ? null : singleRead(s)])
      )
      expect(expected.size).toBe(names.length + 1)
      // Several stages reading at once: single reads, batches and object ids interleaved.
      const [one, two, three] = await Promise.all([
        Promise.all(specs.map(s => git.readObject(s))),
        readBlobs(git, specs.slice(0, 200)),
        readBlobs(git, [...specs].reverse())
      ])
      // Buffer.equals, not toEqual: a deep compare of the 6 MB blob byte by byte takes minutes.
      const same = (a: Buffer | null | undefined, b: Buffer | null) =>
        a === null || a === undefined ? b === null : b !== null && a.equals(b)
      specs.forEach((s, i) => {
        const want = expected.get(s) ?? null
        const got = one[i]
        expect(same(got?.type === 'blob' ? got.bytes : null, want), s).toBe(true)
        expect(same(three.get(s), want), s).toBe(true)
        if (i < 200) expect(same(two.get(s), want), s).toBe(true)
      })
      // One process served all of it.
      expect(batchProcesses(repo.dir)).toHaveLength(1)
    } finally {
      await git.close()
    }
  })
})

describe('the readers live as long as the run', () => {
  it('start on the first read, end on close, and refuse reads after it', async () => {
    const git = new Git(repo.dir, process.env)
    expect(batchProcesses(repo.dir)).toEqual([])
    await git.showFile(head, 'plain.txt')
    await git.objectInfo(`${head}:plain.txt`)
    expect(batchProcesses(repo.dir)).toHaveLength(2) // --batch and --batch-check
    await git.close()
    expect(batchProcesses(repo.dir)).toEqual([])
    await expect(git.showFile(head, 'plain.txt')).rejects.toThrow(/after the run ended/)
    await git.close() // twice is fine
  })

  it('keep a process alive while read or closed, and not while idle', async () => {
    // In a Node process of its own (a test runner's loop has handles of its own): the
    // script reads, awaits close(), then prints; an idle reader holds nothing, so the
    // process also exits with a Git never closed.
    const dir = mkdtempSync(join(tmpdir(), 'og-batch-script-'))
    try {
      const bundle = join(dir, 'git.mjs')
      await build({
        entryPoints: [join(import.meta.dirname, '..', 'src', 'git', 'git.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: bundle,
        logLevel: 'silent'
      })
      const script = (close: boolean) => `
        const { Git } = await import(${JSON.stringify(bundle)})
        const git = new Git(${JSON.stringify(repo.dir)}, process.env)
        const bytes = await git.showFile(${JSON.stringify(head)}, 'plain.txt')
        ${close ? 'await git.close()' : ''}
        console.log('read ' + bytes.length + (${close} ? ', closed' : ', left open'))`
      for (const close of [true, false]) {
        const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(close)], {
          encoding: 'utf8',
          timeout: 60_000
        })
        expect({ status: r.status, out: r.stdout.trim() }).toEqual({
          status: 0,
          out: `read ${singleRead(`${head}:plain.txt`)?.length}, ${close ? 'closed' : 'left open'}`
        })
      }
      expect(batchProcesses(repo.dir)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('end when the gate run ends, with a verdict and with an error', async () => {
    const seen: number[][] = []
    const options = {
      repoDir: repo.dir,
      base: 'HEAD~1',
      head: 'HEAD',
      today: '2026-12-01',
      log: memoryLogger(),
      env: process.env
    }
    const judged = await check({
      ...options,
      replay: async () => {
        seen.push(batchProcesses(repo.dir))
        return {
          reasons: [],
          votes: emptyVotes(),
          transitions: emptyTransitions(),
          seeds: emptySeeds(0),
          flakes: [],
          runs: [],
          diagnostics: emptyDiagnostics()
        }
      }
    })
    expect(judged.verdict).not.toBe('error')
    const failed = await check({
      ...options,
      replay: async () => {
        seen.push(batchProcesses(repo.dir))
        throw new Error('the replay broke')
      }
    })
    expect(failed.verdict).toBe('error')
    expect(failed.reasons.map(r => r.message).join('\n')).toContain('the replay broke')
    // The readers were running during each run (the policy was read through them) ...
    expect(seen.map(s => s.length > 0)).toEqual([true, true])
    // ... and none outlived it.
    expect(batchProcesses(repo.dir)).toEqual([])
  })

  it('end when the run fails before any stage finishes (no policy at the merge base)', async () => {
    const card = await check({
      repoDir: repo.dir,
      base: 'HEAD~1',
      head: 'HEAD',
      policyPath: 'no/such/policy.yml',
      log: memoryLogger(),
      env: process.env
    })
    expect(card.verdict).toBe('error')
    expect(batchProcesses(repo.dir)).toEqual([])
  })
})

describe('git reads the environment its owner hands in, and only that', () => {
  const trace = (name: string) => join(tmpdir(), `og-batch-trace-${process.pid}-${name}`)

  it('runs every command (the readers too) with the handed-in environment, hardened', async () => {
    const handed = trace('handed')
    const ambient = trace('ambient')
    const saved = process.env.GIT_TRACE
    process.env.GIT_TRACE = ambient
    const git = new Git(repo.dir, { PATH: process.env.PATH, GIT_TRACE: handed, GIT_DIR: '/x' })
    let argv: string[]
    let environ: string[]
    try {
      await git.resolveCommit('HEAD')
      await git.showFile(head, 'plain.txt')
      await git.lsTree(head)
      const [pid] = batchProcesses(repo.dir)
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
    } finally {
      await git.close()
      if (saved === undefined) delete process.env.GIT_TRACE
      else process.env.GIT_TRACE = saved
    }
    const log = readFileSync(handed, 'utf8')
    expect(existsSync(ambient)).toBe(false)
    expect(log).toMatch(/built-in: git rev-parse/)
    expect(log).toMatch(/built-in: git cat-file --batch/)
    // The reader runs with the hardened configuration and environment of every command.
    expect(argv).toEqual(expect.arrayContaining(['-c', 'core.hooksPath=/dev/null', 'cat-file']))
    expect(environ).toEqual(
      expect.arrayContaining(['GIT_CONFIG_GLOBAL=/dev/null', `GIT_TRACE=${handed}`])
    )
    expect(environ.some(e => e.startsWith('GIT_DIR='))).toBe(false)
    rmSync(handed, { force: true })
  })

  it('keeps tree listings, raw diffs of object ids and the common git directory for the run, but not listings of ref names', async () => {
    const file = trace('kept')
    const git = new Git(repo.dir, { ...process.env, GIT_TRACE: file })
    const base = repo.sha('HEAD~1')
    try {
      for (let i = 0; i < 3; i++) {
        await git.lsTree(head)
        await git.lsTree(head, ['plain.txt'], { sizes: true })
        await git.diffRaw(base, head)
        await git.diffZeroContext(base, head, undefined, () => undefined)
        await git.lsTree('HEAD')
        await readBlobs(git, [`${head}:plain.txt`, `${base}:-rf`])
        // Asked by each side's guard (git/state.ts): the same directory every time.
        expect(await git.commonDir()).toBe(join(repo.dir, '.git'))
      }
    } finally {
      await git.close()
    }
    const commands = readFileSync(file, 'utf8')
      .split('\n')
      .filter(l => l.includes('built-in: git'))
      .map(l =>
        l.replace(/.*built-in: git (?:'-c' '[^']*' |'--no-pager' |'--literal-pathspecs' )*/, '')
      )
    const count = (prefix: string) => commands.filter(c => c.startsWith(prefix)).length
    expect(count(`ls-tree -r -z --full-tree ${head}`)).toBe(1)
    expect(count(`ls-tree -r -z -l --full-tree ${head}`)).toBe(1)
    expect(count(`ls-tree -r -z --full-tree HEAD`)).toBe(3)
    expect(count('diff --raw')).toBe(1)
    // The -U0 diff streams (its output can be any size): never kept here; its reader
    // (hunks.ts, once per run in lints/view.ts) keeps the bounded part it needs.
    expect(count('diff --no-color')).toBe(3)
    expect(count('cat-file')).toBe(1)
    expect(count('rev-parse --path-format=absolute --git-common-dir')).toBe(1)
    rmSync(file, { force: true })
  })

  it('has no process.env in src/git', () => {
    const dir = join(import.meta.dirname, '..', 'src', 'git')
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/process\.env/)
    }
  })
})
