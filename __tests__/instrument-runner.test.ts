import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileRunnerMatcher, RUNNER_TABLE } from '../src/instrument/runner.js'
import {
  goModTestDirectives,
  iniSections,
  packageTestFields,
  tomlSections
} from '../src/instrument/sections.js'
import { parsePolicy } from '../src/policy/load.js'
import { CLASSIFICATION_TABLE } from '../src/writeset/classify.js'
import { policyYaml } from './helpers/repo.js'

const pytest = (t: string | null): string | null => tomlSections(t, 'tool.pytest')

describe('pyproject.toml: only the [tool.pytest...] part counts', () => {
  const base = `[project]
name = "x"
dependencies = [
  "a",  # comment
]

[tool.pytest.ini_options]
addopts = "-q"
markers = [
  "slow: slow tests",
]
`
  it('ignores dependency, comment and other-tool edits', () => {
    const edited =
      base.replace('"a",  # comment', '"a>=2",\n  "b",').replace('name = "x"', 'name = "y"') +
      '\n[tool.ruff]\nline-length = 90\n'
    expect(pytest(edited)).toBe(pytest(base))
  })

  it('sees edits inside the section, including multi-line values', () => {
    expect(pytest(base.replace('"slow: slow tests",', '"slow: slow tests",\n  "x: y",'))).not.toBe(
      pytest(base)
    )
    expect(pytest(base.replace('addopts = "-q"', 'addopts = "-q -k \'not sort\'"'))).not.toBe(
      pytest(base)
    )
  })

  it('sees dotted keys and inline tables that reach tool.pytest from outside the section', () => {
    expect(pytest(`tool.pytest.ini_options.addopts = "-x"\n${base}`)).not.toBe(pytest(base))
    expect(pytest(`${base}\n[tool]\npytest.ini_options = { addopts = "-x" }\n`)).not.toBe(
      pytest(base)
    )
    expect(pytest(`tool = { pytest = { ini_options = { addopts = "-x" } } }\n`)).not.toBe(
      pytest('')
    )
  })

  it('keeps a # inside a string and a ] inside a multi-line string from confusing it', () => {
    const tricky = `[tool.pytest.ini_options]\naddopts = "-k 'a#b'"\nx = """\n]\n"""\n[project]\nname = "z"\n`
    expect(pytest(tricky)).toContain('a#b')
    expect(pytest(tricky)).not.toContain('name')
  })

  it('treats an absent file and a file without the section alike (the caller maps null to "")', () => {
    expect(pytest('[project]\nname = "x"\n')).toBe('')
    expect(pytest(null)).toBeNull()
  })
})

describe('other section extractors', () => {
  it('setup.cfg keeps [tool:pytest] and drops the rest', () => {
    const cfg = '[metadata]\nname = a\n\n[tool:pytest]\n# comment\naddopts =\n  -q\n'
    expect(iniSections(cfg, s => s === 'tool:pytest')).toBe('[tool:pytest]\naddopts =\n  -q')
    expect(iniSections(cfg.replace('name = a', 'name = b'), s => s === 'tool:pytest')).toBe(
      iniSections(cfg, s => s === 'tool:pytest')
    )
  })

  it('package.json keeps test scripts and runner keys, ignores the rest', () => {
    const pkg = (o: object): string | null => packageTestFields(JSON.stringify(o))
    const a = pkg({
      scripts: { test: 'jest', build: 'tsc' },
      dependencies: { x: '1' },
      jest: { testMatch: ['**/*.test.js'] }
    })
    expect(
      pkg({
        dependencies: { x: '2' },
        jest: { testMatch: ['**/*.test.js'] },
        scripts: { build: 'esbuild', test: 'jest' }
      })
    ).toBe(a)
    expect(
      pkg({
        scripts: { test: 'jest', 'test:unit': 'jest -u', build: 'tsc' },
        dependencies: { x: '1' },
        jest: { testMatch: ['**/*.test.js'] }
      })
    ).not.toBe(a)
    expect(
      pkg({
        scripts: { test: 'jest', pretest: 'rm -rf oracle', build: 'tsc' },
        dependencies: { x: '1' },
        jest: { testMatch: ['**/*.test.js'] }
      })
    ).not.toBe(a)
    expect(
      pkg({
        scripts: { test: 'jest', build: 'tsc' },
        dependencies: { x: '1' },
        jest: { testMatch: [] }
      })
    ).not.toBe(a)
    expect(packageTestFields('{ broken')).toMatch(/^unparsable:/)
  })

  it('go.mod keeps go, toolchain and godebug, ignores require and replace', () => {
    const mod = 'module m\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0\n)\n'
    expect(goModTestDirectives(mod.replace('v1.0.0', 'v1.1.0') + 'replace x => ../x\n')).toBe(
      goModTestDirectives(mod)
    )
    expect(goModTestDirectives(mod.replace('go 1.22', 'go 1.21'))).not.toBe(
      goModTestDirectives(mod)
    )
    expect(goModTestDirectives(`${mod}godebug (\n\tpanicnil=1\n)\n`)).not.toBe(
      goModTestDirectives(mod)
    )
  })
})

describe('the runner table scope', () => {
  const policy = parsePolicy(
    policyYaml('runner_config: [scripts/run-oracle.sh]\n'),
    '.github/oracle-gate.yml'
  )
  const matcher = compileRunnerMatcher(policy, [
    'oracle/properties/test_a.py',
    'oracle/properties/deep/test_b.py'
  ])
  it.each([
    ['conftest.py', true],
    ['oracle/conftest.py', true],
    ['oracle/properties/deep/conftest.py', true],
    ['tests/conftest.py', false],
    ['src/pkg/conftest.py', false],
    ['pytest.ini', true],
    ['tools/pytest.ini', false],
    ['pyproject.toml', true],
    ['src/sub/pyproject.toml', false],
    ['src/sitecustomize.py', true],
    ['venv/lib/site-packages/evil.pth', true],
    ['jest.config.ts', true],
    ['vitest.config.mts', true],
    ['.mocharc.yml', true],
    ['web/jest.config.js', false],
    ['package.json', true],
    ['go.mod', true],
    ['.rspec', true],
    ['scripts/run-oracle.sh', true],
    ['src/app.py', false]
  ])('%s → %s', (path, expected) => {
    expect(matcher.entryFor(path) !== null).toBe(expected)
  })

  it('docs/instrument.md names every runner file and every classification row', () => {
    const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'instrument.md'), 'utf8')
    for (const entry of RUNNER_TABLE)
      for (const name of entry.names) expect(docs).toContain(`\`${name}\``)
    for (const row of CLASSIFICATION_TABLE) expect(docs).toContain(`\`${row.row}\``)
  })
})
