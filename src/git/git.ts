// The one way the gate talks to git. Every failure says which git command failed, in
// which directory, and what git printed, because "git failed" is useless in a CI log.
import { execFile } from 'node:child_process'
import { GateError } from '../errors.js'

export interface GitResult {
  stdout: Buffer
  stderr: string
  code: number
}

export interface TreeEntry {
  mode: string
  type: 'blob' | 'tree' | 'commit'
  sha: string
  path: string
}

const MAX_BUFFER = 1024 * 1024 * 1024

export class Git {
  constructor(readonly cwd: string) {}

  /** Runs git; resolves with the exit code instead of throwing (callers decide). */
  exec(args: string[], input?: string | Buffer): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        args,
        {
          cwd: this.cwd,
          encoding: 'buffer',
          maxBuffer: MAX_BUFFER,
          // No prompts in CI, stable messages to parse, no pager.
          env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_PAGER: 'cat' }
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
          if (error && typeof error.code !== 'number') {
            reject(
              new GateError(`git ${args.join(' ')} could not run in ${this.cwd}: ${error.message}`)
            )
            return
          }
          resolve({ stdout, stderr: stderr.toString('utf8'), code })
        }
      )
      if (input !== undefined) child.stdin?.end(input)
    })
  }

  /** Runs git and returns stdout as text; throws a GateError naming the command on failure. */
  async run(args: string[], input?: string | Buffer): Promise<string> {
    const result = await this.exec(args, input)
    if (result.code !== 0) throw this.failure(args, result)
    return result.stdout.toString('utf8')
  }

  failure(args: string[], result: GitResult): GateError {
    const detail = result.stderr.trim().split('\n').slice(-3).join(' / ') || `exit ${result.code}`
    return new GateError(`git ${args.join(' ')} failed in ${this.cwd}: ${detail}`)
  }

  /** Resolves a ref to a full commit sha. */
  async resolveCommit(ref: string): Promise<string> {
    const result = await this.exec(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    if (result.code !== 0) {
      throw new GateError(
        `cannot resolve "${ref}" to a commit in ${this.cwd} (is it fetched? a shallow clone may lack it)`
      )
    }
    return result.stdout.toString('utf8').trim()
  }

  async hasCommit(sha: string): Promise<boolean> {
    const result = await this.exec(['cat-file', '-e', `${sha}^{commit}`])
    return result.code === 0
  }

  async mergeBase(a: string, b: string): Promise<string> {
    const result = await this.exec(['merge-base', a, b])
    if (result.code === 1)
      throw new GateError(
        `${a} and ${b} have no common ancestor (unrelated histories or a shallow clone)`
      )
    if (result.code !== 0) throw this.failure(['merge-base', a, b], result)
    return result.stdout.toString('utf8').trim()
  }

  /** File bytes at a revision, or null when the path does not exist there. */
  async showFile(rev: string, path: string): Promise<Buffer | null> {
    const spec = `${rev}:${path}`
    const result = await this.exec(['cat-file', 'blob', spec])
    if (result.code === 0) return result.stdout
    const exists = await this.exec(['cat-file', '-e', spec])
    if (exists.code !== 0) return null
    throw this.failure(['cat-file', 'blob', spec], result)
  }

  async showText(rev: string, path: string): Promise<string | null> {
    const bytes = await this.showFile(rev, path)
    return bytes === null ? null : bytes.toString('utf8')
  }

  /** Object id of a path (tree or blob) at a revision, or null when absent. */
  async objectId(rev: string, path: string): Promise<string | null> {
    const result = await this.exec(['rev-parse', '--verify', '--quiet', `${rev}:${path}`])
    return result.code === 0 ? result.stdout.toString('utf8').trim() : null
  }

  /** Recursive listing of a revision's tree (optionally restricted to paths). */
  async lsTree(rev: string, paths: string[] = []): Promise<TreeEntry[]> {
    const out = await this.run([
      'ls-tree',
      '-r',
      '-z',
      '--full-tree',
      rev,
      ...(paths.length ? ['--', ...paths] : [])
    ])
    const entries: TreeEntry[] = []
    for (const record of out.split('\0')) {
      if (record === '') continue
      const tab = record.indexOf('\t')
      const [mode, type, sha] = record.slice(0, tab).split(' ')
      entries.push({
        mode: mode ?? '',
        type: (type ?? 'blob') as TreeEntry['type'],
        sha: sha ?? '',
        path: record.slice(tab + 1)
      })
    }
    return entries
  }
}
