// The one way the gate talks to git (as actions/checkout's git-command-manager): every
// command line the gate runs is a named method here, and every one runs with the same
// hardened configuration, so that nothing in the user's or the runner's git configuration
// (or a .git/config a setup step wrote) runs code or changes what git reports. Every failure
// says which git command failed, in which directory, and what git printed, because "git
// failed" is useless in a CI log.
//
// A Git is one run's: the environment is handed in once by the edge (the CLI, the action)
// and hardened here once; objects are read through one long-lived `cat-file --batch` (and
// one `--batch-check`) started on the first read (batch.ts); tree listings and raw diffs
// of object ids (which cannot change) are run once and their output kept for the run; the
// -U0 diff, whose size grows with the files, is streamed to its reader and never kept. The
// owner calls close() when its run ends, which ends those processes.
import { execFile, spawn } from 'node:child_process'
import { GateError } from '../errors.js'
import { CatFile, sendableAsLine, type ObjectAnswer, type ObjectInfo } from './batch.js'

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
  /** Blob size in bytes, when listed with `{ sizes: true }` (ls-tree -l). */
  size?: number
}

/** A fetch from origin; the refspecs are commit shas or `+src:dst` refspecs. */
export interface FetchSpec {
  refspecs: readonly string[]
  depth?: number
  deepen?: number
  unshallow?: boolean
}

/**
 * Output a buffered command may print (listings, raw diffs, greps of a large tree). The
 * one output that grows with file contents, the -U0 diff, is streamed instead (stream()).
 */
const MAX_BUFFER = 1024 * 1024 * 1024

/** The end of a streamed command's stderr kept for its failure message. */
const STDERR_KEPT = 64 * 1024

/**
 * Command-line configuration, which wins over every configuration file. Hooks, the
 * fsmonitor, pagers, colours and output-format switches a user may have set are turned
 * off or back to git's defaults, so parsing never depends on them; safe.directory keeps an
 * Actions checkout owned by another user (container jobs) readable, which the global
 * config ignored below would otherwise have allowed.
 */
export const HARDENED_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.sparseCheckout=false',
  'core.autocrlf=false',
  'core.quotePath=true',
  'core.pager=cat',
  'color.ui=false',
  'safe.directory=*',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'diff.srcPrefix=a/',
  'diff.dstPrefix=b/',
  'grep.lineNumber=false',
  'grep.column=false',
  'grep.fullName=false',
  'grep.fallbackToNoIndex=false',
  'submodule.recurse=false',
  'gc.auto=0',
  'maintenance.auto=false'
]

/** Inherited GIT_* variables that only choose how to reach a remote; every other is dropped. */
const KEPT_GIT_VARIABLE =
  /^GIT_(SSH|SSH_COMMAND|SSH_VARIANT|SSL_[A-Z_]+|HTTP_[A-Z_]+|PROXY_[A-Z_]+|TRACE[A-Z0-9_]*|CURL_VERBOSE)$/

/**
 * The environment of every git child: system and global configuration ignored (the
 * repository's own config still holds the remote and the checkout's credentials), no
 * replace refs, no prompts, no pager, the C locale for stable messages, and none of the
 * GIT_* variables that would move the repository, the index or the meaning of pathspecs.
 */
export function hardenedGitEnv(inherited: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(inherited)) {
    if (!key.startsWith('GIT_') || KEPT_GIT_VARIABLE.test(key)) env[key] = value
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    LC_ALL: 'C'
  }
}

/** The arguments before the subcommand: no pager, then the hardened configuration. */
export function hardenedArgs(): string[] {
  return ['--no-pager', ...HARDENED_CONFIG.flatMap(setting => ['-c', setting])]
}

interface ExecOptions {
  input?: string | Buffer
  /** Another directory of the same repository (a worktree); default the Git's own. */
  cwd?: string
}

/** A full object id: what a listing may be kept for (a ref name can move). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

export class Git {
  private readonly env: NodeJS.ProcessEnv
  private readonly readers: { batch?: CatFile; check?: CatFile } = {}
  /** Output of listings and diffs between object ids, by command line, for this run. */
  private readonly kept = new Map<string, Promise<string>>()
  private closed = false

  /**
   * @param cwd the checkout
   * @param inherited the environment the edge was started with; hardened once here
   *   (hardenedGitEnv), never read again
   */
  constructor(
    readonly cwd: string,
    inherited: NodeJS.ProcessEnv
  ) {
    this.env = hardenedGitEnv(inherited)
  }

  /**
   * Ends the run's long-lived git processes (the batch readers); later reads are errors.
   * Safe to call more than once; never throws (cleanup).
   */
  async close(): Promise<void> {
    this.closed = true
    const readers = [this.readers.batch, this.readers.check]
    await Promise.all(readers.map(r => r?.close().catch(() => undefined)))
  }

  // -------------------------------------------------------------------------------------
  // Commits and refs

  /** Resolves a ref to a full commit sha. */
  async resolveCommit(ref: string): Promise<string> {
    const result = await this.exec(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    if (result.code !== 0) {
      throw new GateError(
        `cannot resolve "${ref}" to a commit in ${this.cwd} (is it fetched? a shallow clone may lack it)`
      )
    }
    return text(result).trim()
  }

  async hasCommit(sha: string): Promise<boolean> {
    const result = await this.exec(['cat-file', '-e', `${sha}^{commit}`])
    return result.code === 0
  }

  async mergeBase(a: string, b: string): Promise<string> {
    const args = ['merge-base', a, b]
    const result = await this.exec(args)
    if (result.code === 1)
      throw new GateError(
        `${a} and ${b} have no common ancestor (unrelated histories or a shallow clone)`
      )
    if (result.code !== 0) throw this.failure(args, result)
    return text(result).trim()
  }

  /** Whether the two commits have a merge base (false also when one is missing). */
  async hasMergeBase(a: string, b: string): Promise<boolean> {
    return (await this.exec(['merge-base', a, b])).code === 0
  }

  /** The parents of a commit, in order (a merge queue's group commit: base tip, PR head). */
  async parents(sha: string): Promise<string[]> {
    const line = await this.run(['rev-list', '--parents', '-n', '1', sha, '--'])
    return line.trim().split(/\s+/).slice(1)
  }

  async isShallow(): Promise<boolean> {
    return (await this.run(['rev-parse', '--is-shallow-repository'])).trim() === 'true'
  }

  /** Fetches from origin without tags or submodules; resolves with why it failed, or null. */
  async tryFetch(spec: FetchSpec): Promise<GateError | null> {
    const args = fetchArgs(spec)
    const result = await this.exec(args)
    return result.code === 0 ? null : this.failure(args, result)
  }

  async fetch(spec: FetchSpec): Promise<void> {
    const problem = await this.tryFetch(spec)
    if (problem) throw problem
  }

  // -------------------------------------------------------------------------------------
  // Objects and trees

  /** File bytes at a revision, or null when the path does not exist there. */
  async showFile(rev: string, path: string): Promise<Buffer | null> {
    const spec = `${rev}:${path}`
    const answer = await this.readObject(spec)
    if (answer === null) return null
    if (answer.type !== 'blob' || answer.bytes === null)
      throw new GateError(
        `cannot read ${JSON.stringify(spec)} in ${this.cwd}: a ${answer.type}, not a file`
      )
    return answer.bytes
  }

  async showText(rev: string, path: string): Promise<string | null> {
    const bytes = await this.showFile(rev, path)
    return bytes === null ? null : bytes.toString('utf8')
  }

  /** Object id of a path (tree or blob) at a revision, or null when absent. */
  async objectId(rev: string, path: string): Promise<string | null> {
    const spec = `${rev}:${path}`
    const info = sendableAsLine(spec) ? await this.objectInfo(spec) : null
    // Absent to cat-file is also a tree entry whose object is not here (a submodule's
    // commit): rev-parse, which names such an entry, has the last word.
    return info?.oid ?? this.revParseObject(spec)
  }

  /**
   * An object by request (an object id or `rev:path`) through the run's one `cat-file
   * --batch`: its type, size and bytes, or null when there is no such object. A name a
   * line cannot carry (a newline, a final carriage return) is resolved to its id first.
   */
  async readObject(request: string): Promise<ObjectAnswer | null> {
    const asked = await this.sendable(request)
    return asked === null ? null : this.reader('batch').read(asked)
  }

  /** Type and size of an object (as readObject, without the bytes), through `--batch-check`. */
  async objectInfo(request: string): Promise<ObjectInfo | null> {
    const asked = await this.sendable(request)
    const answer = asked === null ? null : await this.reader('check').read(asked)
    return answer === null ? null : { oid: answer.oid, type: answer.type, size: answer.size }
  }

  /**
   * Recursive listing of a revision's tree, optionally restricted to paths (taken
   * literally: a file named `*.py` is that file, not a glob).
   */
  async lsTree(
    rev: string,
    paths: readonly string[] = [],
    options: { sizes?: boolean } = {}
  ): Promise<TreeEntry[]> {
    const out = await this.keep(
      [rev],
      [
        ...(paths.length ? ['--literal-pathspecs'] : []),
        'ls-tree',
        '-r',
        '-z',
        ...(options.sizes ? ['-l'] : []),
        '--full-tree',
        rev,
        ...(paths.length ? ['--', ...paths] : [])
      ]
    )
    return parseLsTree(out)
  }

  // -------------------------------------------------------------------------------------
  // Diffs and searches (no external diff, no textconv: the bytes as committed)

  /** `git diff --raw -z` between two commits: every change, renames detected. */
  async diffRaw(from: string, to: string): Promise<string> {
    // --no-relative and the explicit submodule setting keep a user's git config from
    // changing what is listed.
    return this.keep(
      [from, to],
      [
        'diff',
        '--raw',
        '-z',
        '--no-abbrev',
        '-M',
        '--no-ext-diff',
        '--no-textconv',
        '--no-relative',
        '--ignore-submodules=none',
        from,
        to,
        '--'
      ]
    )
  }

  /**
   * `git diff -U0` of added, modified, renamed, copied and retyped files (paths literal),
   * streamed: each piece of stdout goes to `onChunk` as git writes it, and none is kept
   * here, so a diff of any size costs the memory its reader keeps (hunks.ts keeps a
   * bounded part of it). Resolves when git has ended; a failure of git, or an error thrown
   * by `onChunk` (git is then killed), rejects.
   */
  async diffZeroContext(
    from: string,
    to: string,
    paths: readonly string[] | undefined,
    onChunk: (chunk: Buffer) => void
  ): Promise<void> {
    const args = [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-relative',
      // --text: a file git calls binary (a NUL byte, a `-diff` or `binary` attribute) still
      // shows its added lines; fixed prefixes: diff.noprefix or diff.mnemonicPrefix in the
      // user's config cannot change the names the parser reads.
      '--text',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '-U0',
      '-M',
      '--diff-filter=AMRCT',
      from,
      to
    ]
    await this.stream(
      paths === undefined ? args : ['--literal-pathspecs', ...args, '--', ...paths],
      onChunk
    )
  }

  /**
   * Files of `rev` (among `paths`, when given, taken literally) that hold any of the fixed
   * strings in `patternsFile`, one a line; binary files are skipped. Paths as git prints
   * them: `rev:path`.
   */
  async grepFiles(
    rev: string,
    patternsFile: string,
    options: { ignoreCase?: boolean; paths?: readonly string[] } = {}
  ): Promise<string[]> {
    const args = [
      ...(options.paths ? ['--literal-pathspecs'] : []),
      'grep',
      '--no-color',
      '--no-textconv',
      '-l',
      '-z',
      '-F',
      '-I',
      ...(options.ignoreCase ? ['-i'] : []),
      '-f',
      patternsFile,
      rev,
      '--',
      ...(options.paths ?? [])
    ]
    const result = await this.exec(args)
    if (result.code === 1) return []
    if (result.code !== 0) throw this.failure(args, result)
    return text(result)
      .split('\0')
      .filter(p => p !== '')
  }

  /**
   * Lines of `rev` that hold any of the fixed strings in `patternsFile`, as git prints them
   * with -z: `rev:path\0line`, newline-separated. Empty when nothing matches.
   */
  async grepLines(rev: string, patternsFile: string): Promise<string> {
    const args = ['grep', '--no-color', '--no-textconv', '-F', '-I', '-z', '-f', patternsFile, rev]
    const result = await this.exec(args)
    if (result.code === 1) return ''
    if (result.code !== 0) throw this.failure(args, result)
    return text(result)
  }

  // -------------------------------------------------------------------------------------
  // The checkout and its worktrees

  /**
   * The repository's common git directory (shared by its worktrees), absolute: asked once
   * per run (each side's guard asks), before any of the suite's children have run.
   */
  async commonDir(): Promise<string> {
    return (await this.keep([], ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim()
  }

  /** Paths tracked in the checkout at or below `path` (taken literally), or why git refused. */
  async trackedPaths(path: string): Promise<{ paths: string[] } | { refused: string }> {
    const listed = await this.exec(['--literal-pathspecs', 'ls-files', '-z', '--', path])
    if (listed.code !== 0) return { refused: listed.stderr.trim().split('\n')[0] ?? '' }
    return {
      paths: text(listed)
        .split('\0')
        .filter(p => p !== '')
    }
  }

  /** A detached worktree of `rev` at `dir`. */
  async addWorktree(dir: string, rev: string): Promise<void> {
    await this.run(['worktree', 'add', '--detach', '--force', '--quiet', dir, rev])
  }

  /** Removes a worktree and its bookkeeping; never throws (cleanup). */
  async removeWorktree(dir: string): Promise<void> {
    await this.exec(['worktree', 'remove', '--force', '--force', dir]).catch(() => undefined)
  }

  /** Forgets worktrees whose directories are gone; never throws (cleanup). */
  async pruneWorktrees(): Promise<void> {
    await this.exec(['worktree', 'prune']).catch(() => undefined)
  }

  /** Checks out `paths` (taken literally) of `rev` into the worktree at `worktree`. */
  async checkoutPaths(worktree: string, rev: string, paths: readonly string[]): Promise<void> {
    await this.run(['--literal-pathspecs', 'checkout', rev, '--', ...paths], { cwd: worktree })
  }

  /** Files in the index of the worktree at `worktree`. */
  async indexFiles(worktree: string): Promise<string[]> {
    const out = await this.run(['ls-files', '-z', '--cached'], { cwd: worktree })
    return out.split('\0').filter(f => f !== '')
  }

  /** `git --version` as git prints it (src/git/version.ts reads it). */
  async version(): Promise<string> {
    return this.run(['--version'])
  }

  // -------------------------------------------------------------------------------------
  // Running git

  /** The run's reader of one kind, started hardened like every other command. */
  private reader(mode: 'batch' | 'check'): CatFile {
    if (this.closed) throw new GateError(`git in ${this.cwd}: read after the run ended`)
    const args = ['cat-file', mode === 'batch' ? '--batch' : '--batch-check']
    this.readers[mode] ??= new CatFile(
      mode,
      () => spawn('git', [...hardenedArgs(), ...args], { cwd: this.cwd, env: this.env }),
      this.cwd
    )
    return this.readers[mode]
  }

  /** The request as a batch line, or null when it names nothing (resolved by rev-parse). */
  private async sendable(request: string): Promise<string | null> {
    if (sendableAsLine(request)) return request
    if (request.startsWith('-') || request.includes('\0'))
      throw new GateError(`cannot read ${JSON.stringify(request)} in ${this.cwd}`)
    return this.revParseObject(request)
  }

  private async revParseObject(spec: string): Promise<string | null> {
    const result = await this.exec(['rev-parse', '--verify', '--quiet', spec])
    return result.code === 0 ? text(result).trim() : null
  }

  /**
   * run(), once per run for a command whose revisions are all object ids (its output
   * cannot change); a ref name may move, so such a command runs each time.
   */
  private keep(revs: readonly string[], args: string[]): Promise<string> {
    if (!revs.every(r => OBJECT_ID.test(r))) return this.run(args)
    const key = args.join('\0')
    let out = this.kept.get(key)
    if (out === undefined) {
      out = this.run(args)
      this.kept.set(key, out)
    }
    return out
  }

  /** Runs git hardened; resolves with the exit code instead of throwing (callers decide). */
  private exec(args: string[], options: ExecOptions = {}): Promise<GitResult> {
    const cwd = options.cwd ?? this.cwd
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        [...hardenedArgs(), ...args],
        {
          cwd,
          encoding: 'buffer',
          maxBuffer: MAX_BUFFER,
          env: this.env
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
          if (error && typeof error.code !== 'number') {
            reject(new GateError(`git ${args.join(' ')} could not run in ${cwd}: ${error.message}`))
            return
          }
          resolve({ stdout, stderr: stderr.toString('utf8'), code })
        }
      )
      if (options.input !== undefined) child.stdin?.end(options.input)
    })
  }

  /**
   * Runs git hardened with its stdout handed to `onChunk` piece by piece (nothing kept but
   * the last of stderr, for the failure); rejects as run() does when git fails, and with
   * the sink's own error (git killed) when `onChunk` throws.
   */
  private stream(args: string[], onChunk: (chunk: Buffer) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', [...hardenedArgs(), ...args], {
        cwd: this.cwd,
        env: this.env,
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let stderr = ''
      let sinkError: unknown
      child.stdout.on('data', (chunk: Buffer) => {
        if (sinkError !== undefined) return
        try {
          onChunk(chunk)
        } catch (error) {
          sinkError = error
          child.kill('SIGKILL')
        }
      })
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT)
      })
      child.on('error', error =>
        reject(
          new GateError(`git ${args.join(' ')} could not run in ${this.cwd}: ${error.message}`)
        )
      )
      child.on('close', code => {
        if (sinkError !== undefined) reject(sinkError)
        else if (code === 0) resolve()
        else reject(this.failure(args, { stdout: Buffer.alloc(0), stderr, code: code ?? -1 }))
      })
    })
  }

  /** Runs git and returns stdout as text; throws a GateError naming the command on failure. */
  private async run(args: string[], options: ExecOptions = {}): Promise<string> {
    const result = await this.exec(args, options)
    if (result.code !== 0) throw this.failure(args, result, options.cwd)
    return text(result)
  }

  private failure(args: string[], result: GitResult, cwd: string = this.cwd): GateError {
    const detail = result.stderr.trim().split('\n').slice(-3).join(' / ') || `exit ${result.code}`
    return new GateError(`git ${args.join(' ')} failed in ${cwd}: ${detail}`)
  }
}

function text(result: GitResult): string {
  return result.stdout.toString('utf8')
}

function fetchArgs(spec: FetchSpec): string[] {
  return [
    'fetch',
    '--no-tags',
    '--no-recurse-submodules',
    ...(spec.depth === undefined ? [] : ['--depth', String(spec.depth)]),
    ...(spec.deepen === undefined ? [] : ['--deepen', String(spec.deepen)]),
    ...(spec.unshallow ? ['--unshallow'] : []),
    'origin',
    ...spec.refspecs
  ]
}

/** `git ls-tree -r -z` records → entries. */
function parseLsTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = []
  for (const record of out.split('\0')) {
    if (record === '') continue
    const tab = record.indexOf('\t')
    // With -l a size column follows, padded with spaces ('-' for trees and commits).
    const [mode, type, sha, size] = record.slice(0, tab).split(/ +/)
    const entry: TreeEntry = {
      mode: mode ?? '',
      type: (type ?? 'blob') as TreeEntry['type'],
      sha: sha ?? '',
      path: record.slice(tab + 1)
    }
    if (size !== undefined && /^\d+$/.test(size)) entry.size = Number(size)
    entries.push(entry)
  }
  return entries
}
