// The pieces of setup sharing (src/replay/share.ts) on real folders: what the base offers,
// what it refuses to offer, and that every taker gets a copy of its own (a write in one
// worktree reaches neither the base's folders nor the next taker's).
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  fingerprint,
  makeOffer,
  manifestDigests,
  snapshotTree,
  takeOffer,
  type ChangedBlob,
  type SetupOffer
} from '../src/replay/share.js'

const dirs: string[] = []
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop() as string, { recursive: true, force: true })
})
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'og-share-'))
  dirs.push(dir)
  return dir
}
function put(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

const TREE = { 'package.json': '{"name":"demo"}', 'package-lock.json': '{}', 'src/a.js': 'x' }
const INSTALL = { 'node_modules/dep/index.js': 'module.exports = 1\n' }

/** A worktree before setup, "setup" (install) run in it, and the offer made. */
async function offered(
  install: Record<string, string> = INSTALL,
  tree: Record<string, string> = TREE,
  changed: ChangedBlob[] = []
): Promise<{ worktree: string; result: SetupOffer | string; digest: string }> {
  const worktree = temp()
  put(worktree, tree)
  const before = await snapshotTree(worktree)
  if (before === null) throw new Error('no snapshot')
  const manifests = await manifestDigests(worktree, before)
  const digest = fingerprint('npm ci', {}, manifests)
  put(worktree, install)
  const result = await makeOffer({
    worktree,
    changed,
    at: '/run/demo',
    before,
    manifests,
    digest,
    tempDir: temp(),
    logFile: join(temp(), 'log')
  })
  return { worktree, result, digest }
}

async function taker(tree: Record<string, string> = TREE, command = 'npm ci') {
  const worktree = temp()
  put(worktree, tree)
  const snap = await snapshotTree(worktree)
  if (snap === null) throw new Error('no snapshot')
  const manifests = await manifestDigests(worktree, snap)
  const input = {
    worktree,
    at: '/run/demo',
    snap,
    manifests,
    digest: fingerprint(command, {}, manifests),
    logFile: join(temp(), 'log')
  }
  return { worktree, input }
}

function asOffer(result: SetupOffer | string): SetupOffer {
  if (typeof result === 'string') throw new Error(`no offer: ${result}`)
  return result
}

describe('setup sharing', () => {
  it('each taker gets its own copy: a write in the head reaches neither the base nor the next taker', async () => {
    const base = await offered()
    const offer = asOffer(base.result)
    expect(offer.dirs).toEqual(['node_modules'])
    const head = await taker()
    expect(await takeOffer(offer, head.input)).toEqual({ dirs: ['node_modules'] })
    const file = 'node_modules/dep/index.js'
    expect(readFileSync(join(head.worktree, file), 'utf8')).toBe('module.exports = 1\n')
    // A copy, not a hard link: the head's file is another inode than the base's.
    expect(statSync(join(head.worktree, file)).ino).not.toBe(
      statSync(join(base.worktree, file)).ino
    )
    writeFileSync(join(head.worktree, file), 'module.exports = "tampered"\n')
    expect(readFileSync(join(base.worktree, file), 'utf8')).toBe('module.exports = 1\n')
    const next = await taker()
    await takeOffer(offer, next.input)
    expect(readFileSync(join(next.worktree, file), 'utf8')).toBe('module.exports = 1\n')
  })

  it('the offer is what setup left, taken before anything else writes in the base', async () => {
    const base = await offered()
    const offer = asOffer(base.result)
    // The base's suite writes its cache into node_modules after the offer.
    put(base.worktree, { 'node_modules/.vite/results.json': '{"order":[]}' })
    const head = await taker()
    await takeOffer(offer, head.input)
    expect(() => statSync(join(head.worktree, 'node_modules/.vite'))).toThrow()
  })

  it('refuses when setup wrote outside the dependency folders (a build of the project)', async () => {
    const built = await offered({ ...INSTALL, 'dist/index.js': 'built from src' })
    expect(built.result).toBe('setup wrote dist, outside the dependency folders')
    const rewrote = await offered({ ...INSTALL, 'package-lock.json': '{"rewritten":true}' })
    expect(rewrote.result).toBe('setup wrote package-lock.json, outside the dependency folders')
    // The near miss: nested dependency folders of a workspace are dependency folders.
    const nested = await offered(
      { ...INSTALL, 'packages/a/node_modules/b/index.js': '' },
      {
        ...TREE,
        'packages/a/package.json': '{}'
      }
    )
    expect(asOffer(nested.result).dirs).toEqual(['node_modules', 'packages/a/node_modules'])
  })

  it('refuses a venv holding a non-editable install of a local folder, not an editable one', async () => {
    const site = '.venv/lib/python3.12/site-packages'
    const copy = await offered({
      [`${site}/padlib/__init__.py`]: 'def pad(): ...',
      [`${site}/padlib-1.0.dist-info/direct_url.json`]:
        '{"url": "file:///run/demo", "dir_info": {}}'
    })
    expect(copy.result).toBe(
      '.venv has padlib-1.0 installed from a local folder as a copy (not editable)'
    )
    const editable = await offered({
      [`${site}/__editable__.padlib-1.0.pth`]: '/run/demo/src',
      [`${site}/padlib-1.0.dist-info/direct_url.json`]:
        '{"url": "file:///run/demo", "dir_info": {"editable": true}}',
      [`${site}/requests-2.0.dist-info/METADATA`]: 'Name: requests'
    })
    expect(asOffer(editable.result).dirs).toEqual(['.venv'])
  })

  it('refuses npm copies of files from the repository, not a tarball from elsewhere', async () => {
    const record = (resolved: string): Record<string, string> => ({
      ...INSTALL,
      'node_modules/.package-lock.json': JSON.stringify({
        packages: { 'node_modules/lib': { resolved } }
      })
    })
    const inside = await offered(record('file:vendor/lib-1.0.0.tgz'))
    expect(inside.result).toBe(
      'node_modules/lib is a copy of file:vendor/lib-1.0.0.tgz from the repository (a file: dependency)'
    )
    const outside = await offered(record('file:/srv/cache/lib-1.0.0.tgz'))
    expect(asOffer(outside.result).dirs).toEqual(['node_modules'])
  })

  it('refuses an install holding a copy of a file the head changed (its merge-base version), not other files', async () => {
    const code = 'export const pad = (s, n) => s.padStart(n - 1)\n'
    const blob = (path: string, text: string): ChangedBlob => {
      const bytes = Buffer.from(text)
      const oid = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
      return { path, oid, size: bytes.length }
    }
    const tree = { ...TREE, 'src/pad.js': code }
    const copied = await offered({ ...INSTALL, 'node_modules/pad/pad.js': code }, tree, [
      blob('src/pad.js', code)
    ])
    expect(copied.result).toBe(
      "node_modules/pad/pad.js is a copy of the merge base's src/pad.js, which the head changed"
    )
    // The near miss: same size, other bytes; and a copy of a file the head did not change.
    const other = code.replace('n - 1', 'n + 1')
    const sameSize = await offered({ ...INSTALL, 'node_modules/pad/pad.js': other }, tree, [
      blob('src/pad.js', code)
    ])
    expect(asOffer(sameSize.result).dirs).toEqual(['node_modules'])
    const unchanged = await offered({ ...INSTALL, 'node_modules/pad/pad.js': code }, tree, [
      blob('src/other.js', 'x = 1\n')
    ])
    expect(asOffer(unchanged.result).dirs).toEqual(['node_modules'])
  })

  it('a different manifest, setup command or path sets up anew, naming why', async () => {
    const offer = asOffer((await offered()).result)
    const bumped = await taker({ ...TREE, 'package-lock.json': '{"dep":"2"}' })
    expect(await takeOffer(offer, bumped.input)).toBe("package-lock.json differs from the base's")
    const added = await taker({ ...TREE, 'requirements-dev.txt': 'pytest\n' })
    expect(await takeOffer(offer, added.input)).toBe("requirements-dev.txt differs from the base's")
    const other = await taker(TREE, 'npm install')
    expect(await takeOffer(offer, other.input)).toBe(
      "the setup command or its environment differs from the base's"
    )
    const elsewhere = await taker()
    expect(await takeOffer(offer, { ...elsewhere.input, at: '/run/other' })).toBe(
      "it runs at /run/other, the base's setup ran at /run/demo"
    )
    expect(fingerprint('npm ci', { TZ: 'UTC' }, new Map())).not.toBe(
      fingerprint('npm ci', {}, new Map())
    )
  })

  it('never copies through a folder the head made a symlink out of the worktree', async () => {
    const tree = { ...TREE, 'packages/a/package.json': '{}' }
    const offer = asOffer(
      (await offered({ ...INSTALL, 'packages/a/node_modules/b/index.js': '' }, tree)).result
    )
    const outside = temp()
    const head = temp()
    put(head, TREE)
    mkdirSync(join(head, 'packages'))
    symlinkSync(outside, join(head, 'packages/a'))
    put(outside, { 'package.json': '{}' })
    const snap = await snapshotTree(head)
    if (snap === null) throw new Error('no snapshot')
    const manifests = await manifestDigests(head, snap)
    const input = {
      worktree: head,
      at: '/run/demo',
      snap,
      manifests,
      // The walk does not follow the link, so force equal fingerprints: the parent check
      // alone must refuse.
      digest: offer.digest,
      logFile: join(temp(), 'log')
    }
    expect(await takeOffer(offer, input)).toBe(
      'packages/a does not lead to a folder inside the worktree'
    )
    expect(() => statSync(join(outside, 'node_modules'))).toThrow()
  })

  it('never copies into a node_modules the head committed as a symlink to elsewhere', async () => {
    const offer = asOffer((await offered()).result)
    const outside = temp()
    const head = await taker()
    symlinkSync(outside, join(head.worktree, 'node_modules'))
    const snap = await snapshotTree(head.worktree)
    if (snap === null) throw new Error('no snapshot')
    const input = { ...head.input, snap, manifests: await manifestDigests(head.worktree, snap) }
    expect(await takeOffer(offer, input)).toBe('node_modules exists in the worktree already')
    expect(() => statSync(join(outside, 'node_modules'))).toThrow()
    expect(() => statSync(join(outside, 'dep'))).toThrow()
  })
})
