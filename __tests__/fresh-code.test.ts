// The gate's pytest plugin and bytecode caches outside the checkout. Installed packages keep
// their ordinary caches and are not rewritten by pytest unless as tests (it rewrites every
// module of a plugin's distribution, all of Hypothesis, into a cache the gate's runs never
// write: 0.8 s a run, issue 29), but a cache is looked for where it was when the run
// started: code of the checkout that points sys.pycache_prefix, or importlib's own cache
// folder, at a folder it can write and plants compiled code there for a module outside the
// checkout (one the sandbox mounts read-only) would otherwise have it run. Real pytest, the
// plugin loaded as the gate loads it; first the naive run (no plugin) shows the forgery
// working, then the plugin's run shows the module's own source running, through the plain
// import and through pytest's assertion rewriter; and the honest near-misses (a helper's
// assert, tests outside the checkout, python -O) keep their outcomes.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pythonWithPytest } from './helpers/python.js'

const PY = pythonWithPytest()
const PLUGIN_DIR = join(import.meta.dirname, '..', 'src', 'reporters', 'python')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** conftest.py of the checkout: plants compiled `VALUE = 2` for extmod under a new prefix. */
const FORGER = (rewritten: boolean): string => `import importlib.util, marshal, os, sys, tempfile
from pathlib import Path
${rewritten ? 'import pytest\npytest.register_assert_rewrite("extmod")\n' : ''}
spec = importlib.util.find_spec("extmod")
source = spec.origin
st = os.stat(source)
code = compile("VALUE = 2\\n", source, "exec")
sys.pycache_prefix = tempfile.mkdtemp()
if ${rewritten ? 'True' : 'False'}:
    from _pytest.assertion import rewrite
    folder = rewrite.get_cache_dir(Path(source))
    target = folder / (Path(source).stem + rewrite.PYC_TAIL)
    data = (importlib.util.MAGIC_NUMBER + b"\\x00\\x00\\x00\\x00"
            + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
            + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little") + marshal.dumps(code))
else:
    from importlib import _bootstrap_external as ext
    target = Path(importlib.util.cache_from_source(source))
    data = bytes(ext._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size))
target.parent.mkdir(parents=True, exist_ok=True)
target.write_bytes(data)
`

/** The same forgery with sys.pycache_prefix left alone: importlib's own cache folder moved. */
const FORGER_IMPORTLIB = `import importlib.util, os
from importlib import _bootstrap_external as ext

spec = importlib.util.find_spec("extmod")
source = spec.origin
st = os.stat(source)
ext._PYCACHE = "../" * 40 + os.path.dirname(os.path.abspath(__file__)).lstrip("/") + "/.forged"
target = ext.cache_from_source(source)
os.makedirs(os.path.dirname(target), exist_ok=True)
code = compile("VALUE = 2\\n", source, "exec")
with open(target, "wb") as out:
    out.write(bytes(ext._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)))
`

const TEST = 'def test_value():\n    import extmod\n\n    assert extmod.VALUE == 1\n'

/** A checkout and a folder beside it that goes on PYTHONPATH (the installed packages). */
function layout(): { checkout: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'og-fresh-'))
  dirs.push(root)
  const checkout = join(root, 'checkout')
  const outside = join(root, 'site')
  mkdirSync(checkout)
  mkdirSync(outside)
  return { checkout, outside }
}

/** A checkout with the forging conftest and a module outside it, on PYTHONPATH. */
function project(
  rewritten: boolean,
  forger = FORGER(rewritten)
): { checkout: string; outside: string } {
  const { checkout, outside } = layout()
  writeFileSync(join(outside, 'extmod.py'), 'VALUE = 1\n')
  writeFileSync(join(checkout, 'conftest.py'), forger)
  writeFileSync(join(checkout, 'test_value.py'), TEST)
  return { checkout, outside }
}

/** pytest in the checkout; with the plugin, loaded and armed as the gate does it. */
function pytest(p: { checkout: string; outside: string }, plugin: boolean): number | null {
  return runPytest(p, plugin, 'test_value.py').status
}

function runPytest(
  p: { checkout: string; outside: string },
  plugin: boolean,
  file: string,
  flags: string[] = [],
  extra: NodeJS.ProcessEnv = {}
): { status: number | null; stdout: string } {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONPATH: plugin ? `${PLUGIN_DIR}:${p.outside}` : p.outside,
    ...('OUTSIDE' in extra ? { ...extra, OUTSIDE: p.outside } : extra)
  }
  if (plugin) {
    env.PYTEST_PLUGINS = 'pytest_outcomes'
    env.TEST_OUTCOME_STREAM = '3:0123456789abcdef'
  }
  const r = spawnSync(PY, [...flags, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', file], {
    cwd: p.checkout,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe', 'pipe']
  })
  return { status: r.status, stdout: r.stdout }
}

describe.each([false, true])('a forged cache outside the checkout (rewritten: %s)', rewritten => {
  it('runs in a naive run: the test sees the forged value', () => {
    expect(pytest(project(rewritten), false)).toBe(1)
  })

  it("is not read under the gate's plugin: the module's source runs", () => {
    expect(pytest(project(rewritten), true)).toBe(0)
  })
})

describe("a forged cache outside the checkout, through importlib's own cache folder", () => {
  it('runs in a naive run: the test sees the forged value', () => {
    expect(pytest(project(false, FORGER_IMPORTLIB), false)).toBe(1)
  })

  it("is not read under the gate's plugin: the cache is looked for where it was at start", () => {
    expect(pytest(project(false, FORGER_IMPORTLIB), true)).toBe(0)
  })
})

/**
 * conftest.py of the checkout: a module made now outside it, with a cache saying VALUE = 2;
 * `backdated`: the cache's times then set an hour back (os.utime), as an old cache's are.
 */
const PLANTER = (backdated: boolean): string => `import importlib.util, os, sys
from importlib import _bootstrap_external as ext

folder = os.environ["OUTSIDE"]
source = os.path.join(folder, "madenow.py")
with open(source, "w") as out:
    out.write("VALUE = 1\\n")
st = os.stat(source)
target = importlib.util.cache_from_source(source)
os.makedirs(os.path.dirname(target), exist_ok=True)
code = compile("VALUE = 2\\n", source, "exec")
with open(target, "wb") as out:
    out.write(bytes(ext._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)))
if ${backdated ? 'True' : 'False'}:
    os.utime(target, (st.st_mtime - 3600, st.st_mtime - 3600))
`

describe.each([false, true])('a cache written while the run runs (backdated: %s)', backdated => {
  function planted(): { checkout: string; outside: string } {
    const p = layout()
    writeFileSync(join(p.checkout, 'conftest.py'), PLANTER(backdated))
    const test = 'def test_value():\n    import madenow\n\n    assert madenow.VALUE == 1\n'
    writeFileSync(join(p.checkout, 'test_value.py'), test)
    return p
  }

  it('runs in a naive run: the test sees the planted value', () => {
    expect(runPytest(planted(), false, 'test_value.py', [], { OUTSIDE: '' }).status).toBe(1)
  })

  it("is not read under the gate's plugin: the module's source runs", () => {
    expect(runPytest(planted(), true, 'test_value.py', [], { OUTSIDE: '' }).status).toBe(0)
  })
})

// Python's own loader makes the file of code read from a cache the source's path, whatever
// file the cache's code names; the plugin's cache reader does the same, so that code
// claiming to be pytest's own runner.py reads as the module it was imported as.
/**
 * A module outside the checkout whose `where()` tells its code's file, a cache for it written
 * before the run whose code `made` makes (Python lines setting `code` from the source's
 * `text` and `runner`, pytest's runner.py), and a test that `where()` names the module's file.
 */
function cachedWhere(module: string, made: string): { checkout: string; outside: string } {
  const p = layout()
  const source = join(p.outside, `${module}.py`)
  writeFileSync(source, 'def where():\n    return where.__code__.co_filename\n')
  const script = `import importlib.util, os, sys, types
from importlib import _bootstrap_external as ext
import _pytest.runner
source = sys.argv[1]
st = os.stat(source)
text, runner = open(source).read(), _pytest.runner.__file__
${made}
target = importlib.util.cache_from_source(source)
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target, "wb") as out:
    out.write(bytes(ext._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)))
`
  const r = spawnSync(PY, ['-c', script, source], { encoding: 'utf8' })
  expect(r.stderr).toBe('')
  const test = `import ${module}\n\n\ndef test_where():\n    assert ${module}.where() == ${module}.__file__\n`
  writeFileSync(join(p.checkout, 'test_where.py'), test)
  return p
}

describe('a cache whose code names another file', () => {
  const named = (): { checkout: string; outside: string } =>
    cachedWhere('named', 'code = compile(text, runner, "exec")')

  it('reads as the source in a naive run', () => {
    expect(runPytest(named(), false, 'test_where.py').status).toBe(0)
  })

  it("reads as the source under the gate's plugin", () => {
    expect(runPytest(named(), true, 'test_where.py').status).toBe(0)
  })
})

// A source file of the checkout whose name does not end in .py, loaded by a loader of its
// own, with a cache planted for it under a pycache prefix set at run time.
const TXT_PLANTER = `import importlib.machinery, importlib.util, os, sys, tempfile
from importlib import _bootstrap_external as ext

here = os.path.dirname(os.path.abspath(__file__))
source = os.path.join(here, "mod.txt")
st = os.stat(source)
sys.pycache_prefix = tempfile.mkdtemp()
target = importlib.util.cache_from_source(source)
os.makedirs(os.path.dirname(target), exist_ok=True)
with open(target, "wb") as out:
    code = compile("VALUE = 2\\n", source, "exec")
    out.write(bytes(ext._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)))
loader = importlib.machinery.SourceFileLoader("mod", source)
spec = importlib.util.spec_from_loader("mod", loader)
mod = importlib.util.module_from_spec(spec)
loader.exec_module(mod)
sys.modules["mod"] = mod
`

describe('a source of the checkout not named .py, with a cache planted for it', () => {
  function txt(): { checkout: string; outside: string } {
    const p = layout()
    writeFileSync(join(p.checkout, 'mod.txt'), 'VALUE = 1\n')
    writeFileSync(join(p.checkout, 'conftest.py'), TXT_PLANTER)
    const test = 'def test_value():\n    import mod\n\n    assert mod.VALUE == 1\n'
    writeFileSync(join(p.checkout, 'test_value.py'), test)
    return p
  }

  it('runs in a naive run: the test sees the planted value', () => {
    expect(runPytest(txt(), false, 'test_value.py').status).toBe(1)
  })

  it("is not read under the gate's plugin: the file's source runs", () => {
    expect(runPytest(txt(), true, 'test_value.py').status).toBe(0)
  })
})

// A cache older than the run, outside the interpreter's folders, whose outer code names one
// file and a function inside it another (pytest's runner.py): Python's loader renames only
// the code that names the outer file, so the function keeps the name it was given.
describe('a cache whose functions name another file than the module', () => {
  const mixed = (): { checkout: string; outside: string } =>
    cachedWhere(
      'mixed',
      `outer = compile(text, "elsewhere.py", "exec")
consts = tuple(c.replace(co_filename=runner) if isinstance(c, types.CodeType) else c
               for c in outer.co_consts)
code = outer.replace(co_consts=consts)`
    )

  it("keeps the function's other name in a naive run", () => {
    expect(runPytest(mixed(), false, 'test_where.py').status).toBe(1)
  })

  it("is not read under the gate's plugin: the source compiles", () => {
    expect(runPytest(mixed(), true, 'test_where.py').status).toBe(0)
  })
})

// pytest registers every module of an installed plugin's distribution for rewriting, as the
// conftest here registers a helper outside the checkout. Under the plugin the helper imports
// as Python imports it (its assert still fails the test, with a plain message); the
// checkout's own test file is rewritten as before.
describe('assertion rewriting of modules outside the checkout', () => {
  function helperProject(): { checkout: string; outside: string } {
    const { checkout, outside } = layout()
    writeFileSync(join(outside, 'exthelp.py'), 'def check(seen):\n    assert seen == 1\n')
    writeFileSync(
      join(checkout, 'conftest.py'),
      'import pytest\n\npytest.register_assert_rewrite("exthelp")\n'
    )
    writeFileSync(
      join(checkout, 'test_help.py'),
      'import exthelp\n\n\ndef test_through_helper():\n    exthelp.check(2)\n\n\n' +
        'def test_own_assert():\n    mine = 2\n    assert mine == 3\n'
    )
    return { checkout, outside }
  }

  it('rewrites the helper in a naive run: its failure shows the compared values', () => {
    const r = runPytest(helperProject(), false, 'test_help.py')
    expect(r.status).toBe(1)
    expect(r.stdout).toContain('2 failed')
    expect(r.stdout).toMatch(/test_through_helper - assert 2 == 1/)
    expect(r.stdout).toMatch(/assert 2 == 3/)
  })

  it("leaves the helper as Python imports it under the gate's plugin; outcomes stay", () => {
    const r = runPytest(helperProject(), true, 'test_help.py')
    expect(r.status).toBe(1)
    expect(r.stdout).toContain('2 failed')
    expect(r.stdout).not.toMatch(/assert 2 == 1/)
    expect(r.stdout).toMatch(/exthelp\.py:2: AssertionError/)
    // The checkout's test file is still rewritten.
    expect(r.stdout).toMatch(/assert 2 == 3/)
  })

  it('still rewrites a test file outside the checkout (pytester, tests beside it)', () => {
    const p = helperProject()
    const far = join(p.outside, '..', 'far_tests')
    mkdirSync(far)
    writeFileSync(join(far, 'test_far.py'), 'def test_far():\n    seen = 4\n    assert seen == 5\n')
    for (const plugin of [false, true]) {
      const r = runPytest(p, plugin, join(far, 'test_far.py'))
      expect(r.status).toBe(1)
      expect(r.stdout).toMatch(/assert 4 == 5/)
    }
  })

  it('rewrites the helper under python -O, where rewriting is what keeps its assert', () => {
    for (const plugin of [false, true]) {
      const r = runPytest(helperProject(), plugin, 'test_help.py', ['-O'])
      expect(r.status).toBe(1)
      expect(r.stdout).toContain('2 failed')
    }
  })
})
