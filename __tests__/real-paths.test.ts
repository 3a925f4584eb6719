// The plugin's path resolver (src/reporters/python/pytest_outcomes.py `_real_paths`): how the
// plugin and the watchers tell a module's file from the checkout's. It keeps the answers
// for folders of the interpreter's own (under sys.prefix and the rest: the standard library,
// site-packages), so such a file costs one lstat instead of realpath's walk of every
// component (issue 29: some 1,300 paths a watched run). It must answer as os.path.realpath
// does for every shape of path (links to folders and to files, links to links, dangling
// links, `..`, relative paths, bytes, trailing separators, a file replaced by a link after
// its folder was kept), and keep nothing for a folder a run can write: one swapped for a
// link into the checkout after it was first resolved would make a checkout file pass for
// one outside it (a reviewer's attack on the first version, which kept every folder).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runPythonJson } from './helpers/python.js'

const dirs: string[] = []

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const TREE = `
import json, os, sys
import pytest_outcomes as po
root = os.getcwd()
j = lambda *p: os.path.join(root, *p)
os.makedirs(j("real", "pkg", "sub"))
for name in ("a.py", "b.py", "target.py"):
    open(j("real", "pkg", name), "w").close()
os.symlink(j("real", "pkg"), j("linked"))                 # a folder link
os.symlink(j("real", "pkg", "target.py"), j("real", "pkg", "file_link.py"))
os.symlink("file_link.py", j("real", "pkg", "link_to_link.py"))
os.symlink(j("nowhere", "x.py"), j("real", "pkg", "dangling.py"))
os.symlink("../..", j("real", "pkg", "sub", "up"))       # a relative link to an ancestor
`

describe('the plugin resolver answers as os.path.realpath', () => {
  it('for every shape of path, before and after its folder is kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'og-real-'))
    dirs.push(dir)
    const out = runPythonJson(
      `${TREE}
paths = [
    j("real", "pkg", "a.py"), j("linked", "a.py"), j("linked", "b.py"),
    j("linked", "file_link.py"), j("linked", "link_to_link.py"), j("linked", "dangling.py"),
    j("linked", "sub", "up", "pkg", "a.py"), j("linked", "sub", "up", "..", "linked", "a.py"),
    j("linked", "sub", "..", "a.py"), j("linked", "missing", "x.py"), j("linked") + os.sep,
    j("linked", "."), j("linked", ".."), "linked/a.py", "a.py", ".", os.sep,
    os.fsencode(j("linked", "a.py")), j("linked", "sub", "up"),
]
sys.prefix = root  # the tree stands for the interpreter's own folders
real = po._real_paths(j("checkout"))
first = [real(p) for p in paths]
again = [real(p) for p in paths]
expected = [os.path.realpath(p) for p in paths]
# A file the folder held replaced by a link after the folder was kept.
os.remove(j("real", "pkg", "b.py"))
os.symlink(j("real", "pkg", "target.py"), j("real", "pkg", "b.py"))
swapped = real(j("linked", "b.py"))
show = lambda v: os.fsdecode(v)
print(json.dumps({
    "mismatch": [show(p) for p, got, want in zip(paths, first, expected) if got != want],
    "unstable": [show(p) for p, a, b in zip(paths, first, again) if a != b],
    "swapped": [swapped, os.path.realpath(j("linked", "b.py"))],
}))
`,
      dir
    ) as { mismatch: string[]; unstable: string[]; swapped: [string, string] }
    expect(out.mismatch).toEqual([])
    expect(out.unstable).toEqual([])
    expect(out.swapped[0]).toBe(out.swapped[1])
    expect(out.swapped[0].endsWith('target.py')).toBe(true)
  })

  it("walks a folder's components once for all the files in it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'og-real-'))
    dirs.push(dir)
    const out = runPythonJson(
      `${TREE}
calls = []
plain = os.path.realpath
os.path.realpath = lambda p: calls.append(p) or plain(p)
sys.prefix = root
real = po._real_paths(j("checkout"))
for i in range(50):
    real(j("linked", "f%d.py" % i))
print(json.dumps({"calls": len(calls)}))
`,
      dir
    ) as { calls: number }
    expect(out.calls).toBe(1)
  })

  it('keeps nothing for a folder outside the interpreter, nor one of the checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'og-real-'))
    dirs.push(dir)
    const out = runPythonJson(
      `${TREE}
os.makedirs(j("checkout", "pkg"))
open(j("checkout", "pkg", "mod.py"), "w").close()
interpreter = j("interp")
os.makedirs(interpreter)
sys.prefix = interpreter
real = po._real_paths(j("checkout"))
# A folder of the run's own: resolved once, then swapped for a link into the checkout.
scratch = j("scratch")
os.makedirs(scratch)
open(os.path.join(scratch, "seed.py"), "w").close()
real(os.path.join(scratch, "seed.py"))
os.rename(scratch, scratch + ".old")
os.symlink(j("checkout", "pkg"), scratch)
swapped = [real(os.path.join(scratch, "mod.py")), os.path.realpath(os.path.join(scratch, "mod.py"))]
# The checkout under the interpreter's prefix: its folders are not kept either.
sys.prefix = root
inner = po._real_paths(j("checkout"))
inner(j("checkout", "pkg", "mod.py"))
os.rename(j("checkout", "pkg"), j("checkout", "pkg.old"))
os.makedirs(j("checkout", "elsewhere"))
open(j("checkout", "elsewhere", "mod.py"), "w").close()
os.symlink(j("checkout", "elsewhere"), j("checkout", "pkg"))
moved = [inner(j("checkout", "pkg", "mod.py")), os.path.realpath(j("checkout", "pkg", "mod.py"))]
print(json.dumps({"swapped": swapped, "moved": moved}))
`,
      dir
    ) as { swapped: [string, string]; moved: [string, string] }
    expect(out.swapped[0]).toBe(out.swapped[1])
    expect(out.swapped[0]).toContain('/checkout/pkg/mod.py')
    expect(out.moved[0]).toBe(out.moved[1])
    expect(out.moved[0]).toContain('/checkout/elsewhere/mod.py')
  })
})
