// Real temporary git repositories for tests: write files, commit, branch. Identity and
// config come from the environment so tests do not depend on the machine's git config.
import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  LC_ALL: 'C'
}

export class TestRepo {
  readonly dir: string

  constructor(prefix = 'og-test-') {
    this.dir = mkdtempSync(join(tmpdir(), prefix))
    this.git('init', '-q', '-b', 'main')
    // What `git config commit.gpgsign false` writes, without a second git process (the
    // fast tier makes hundreds of these repositories).
    appendFileSync(join(this.dir, '.git', 'config'), '[commit]\n\tgpgsign = false\n')
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      env: GIT_ENV,
      encoding: 'utf8',
      maxBuffer: 1 << 30
    })
  }

  write(files: Record<string, string | Buffer>): this {
    for (const [path, content] of Object.entries(files)) {
      const full = join(this.dir, path)
      mkdirSync(dirname(full), { recursive: true })
      writeFileSync(full, content)
    }
    return this
  }

  remove(...paths: string[]): this {
    for (const p of paths) rmSync(join(this.dir, p), { recursive: true, force: true })
    return this
  }

  symlink(path: string, target: string): this {
    const full = join(this.dir, path)
    mkdirSync(dirname(full), { recursive: true })
    try {
      unlinkSync(full)
    } catch {
      // not there yet
    }
    symlinkSync(target, full)
    return this
  }

  chmod(path: string, mode: number): this {
    chmodSync(join(this.dir, path), mode)
    return this
  }

  /** Stages everything and commits; returns the new sha. */
  commit(message = 'change'): string {
    this.git('add', '-A')
    this.git('commit', '-q', '--allow-empty', '-m', message)
    return this.headSha() ?? this.sha()
  }

  sha(ref = 'HEAD'): string {
    return this.git('rev-parse', ref).trim()
  }

  /** HEAD's commit read from the files git just wrote (a detached sha or a loose branch ref). */
  private headSha(): string | undefined {
    const read = (path: string): string | undefined => {
      const file = join(this.dir, '.git', path)
      return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined
    }
    const head = read('HEAD')
    const target = head?.startsWith('ref: ') ? read(head.slice(5)) : head
    return target !== undefined && /^[0-9a-f]{40}$/.test(target) ? target : undefined
  }

  branch(name: string, from = 'HEAD'): this {
    this.git('checkout', '-q', '-B', name, from)
    return this
  }

  checkout(ref: string): this {
    this.git('checkout', '-q', ref)
    return this
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** A minimal valid policy (YAML), with overrides appended verbatim. */
export function policyYaml(extra = ''): string {
  return `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
  drafts: [drafts/**]
  in_diff: [tests/**]
suite:
  command: python3 -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 1
${extra}`
}
