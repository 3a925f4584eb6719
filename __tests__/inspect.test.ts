// init's repository inspection, as a pure function of tracked files, file text and the
// tools on PATH: each shape gets the voting globs, tool and layout hints a real one needs.
import { describe, expect, it } from 'vitest'
import { inspect, votingGlobs } from '../src/policy/inspect.js'
import { parsePolicy } from '../src/policy/load.js'
import { renderInspected } from '../src/policy/starter.js'

const FILE = '.github/oracle-gate.yml'
const tools =
  (...names: string[]) =>
  (t: string): boolean =>
    names.includes(t)
const reader =
  (texts: Record<string, string>) =>
  (p: string): string | null =>
    texts[p] ?? null

describe('votingGlobs', () => {
  it('a dedicated test folder becomes dir/**; tests beside the code become name patterns', () => {
    expect(
      votingGlobs(['tests/test_a.py', 'tests/unit/test_b.py', 'pkg/sub/test_c.py', 'pkg/d_test.py'])
    ).toEqual({
      voting: ['pkg/**/*_test.py', 'pkg/**/test_*.py', 'tests/**'],
      paths: ['pkg', 'tests']
    })
    expect(votingGlobs(['src/a.test.ts', 'src/x/b.spec.tsx', 'web/__tests__/c.js'])).toEqual({
      voting: ['src/**/*.spec.tsx', 'src/**/*.test.ts', 'web/__tests__/**'],
      paths: ['src', 'web/__tests__']
    })
  })
})

describe('inspect', () => {
  it('falls back to pytest from the environment when uv.lock names a uv that is not installed, with a comment', () => {
    const ins = inspect({
      files: ['uv.lock', 'pyproject.toml', 'tests/test_a.py', 'pkg/__init__.py'],
      read: reader({}),
      has: tools('python')
    })
    expect(ins.fallback).toEqual({ wanted: 'uv', used: 'pytest from the environment' })
    expect(ins.python).toBe('python')
    const text = renderInspected(ins)
    expect(text).toMatch(/names uv, which is not installed/)
    const policy = parsePolicy(text, FILE)
    expect(policy.suite.command).toMatch(/^python -m pytest tests /)
    // A root layout under PYTHONSAFEPATH=1 needs the root on the path.
    expect(policy.suite.env).toEqual({ PYTHONPATH: '.' })
    expect(policy.suite.setup).toBeUndefined()
  })

  it('keeps uv when it is installed, and leaves PYTHONPATH to pytest when its configuration sets pythonpath', () => {
    const ins = inspect({
      files: ['uv.lock', 'pytest.ini', 'src/pkg/__init__.py', 'tests/test_a.py'],
      read: reader({ 'pytest.ini': '[pytest]\npythonpath = src\n' }),
      has: tools('uv', 'python3')
    })
    const policy = parsePolicy(renderInspected(ins), FILE)
    expect(policy.suite.command).toMatch(/^uv run --frozen --no-sync python -m pytest tests/)
    expect(policy.suite.runner).toBe('pytest')
    expect(policy.suite.env).toEqual({})
    expect(policy.protected).toContain('pytest.ini')
  })

  it('a pnpm lockfile without pnpm installed falls back to npm install; campaign only with fast-check', () => {
    const pkg = '{"devDependencies": {"vitest": "1", "fast-check": "3"}}'
    const ins = inspect({
      files: ['package.json', 'pnpm-lock.yaml', 'src/a.test.ts'],
      read: reader({ 'package.json': pkg }),
      has: tools('npm')
    })
    const policy = parsePolicy(renderInspected(ins), FILE)
    expect(policy.suite.setup).toBe('npm install --prefer-offline --no-audit --no-fund')
    expect(policy.suite.command).toMatch(/^npx --no vitest run src /)
    expect(policy.suite.runner).toBe('vitest')
    expect(renderInspected(ins)).toMatch(/^campaign:/m)
    const plain = inspect({
      files: ['package.json', 'src/a.test.ts'],
      read: reader({ 'package.json': '{"devDependencies": {"vitest": "1"}}' }),
      has: tools('npm')
    })
    expect(renderInspected(plain)).not.toMatch(/^campaign:/m)
  })

  it('no tracked tests: the placeholder starter (which still parses)', () => {
    const ins = inspect({ files: ['setup.py'], read: reader({}), has: tools('python3') })
    expect(parsePolicy(renderInspected(ins), FILE).planes.voting).toEqual(['oracle/properties/**'])
  })
})
