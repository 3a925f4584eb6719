// The pure half of the production plane (issue 23): whose version of a path the vote uses,
// the globs init proposes from a layout, the output folders fidelity lets a setup fill,
// the paths the card lists as not measured, the union rule, and the card's section.
import { describe, expect, it } from 'vitest'
import { diagnose } from '../src/doctor/findings.js'
import { unmeasuredImports } from '../src/doctor/production.js'
import { productionReset, unmeasuredPaths, type HeadCounts } from '../src/instrument/overlay.js'
import type { InstrumentView } from '../src/instrument/view.js'
import { parsePolicy } from '../src/policy/load.js'
import {
  dependencySource,
  headVersionCounts,
  isBuildInput,
  isManifest,
  layoutProduction
} from '../src/policy/production.js'
import { unitePolicies } from '../src/policy/union.js'
import { ignoreMatcher } from '../src/replay/ignored.js'
import { renderMarkdown } from '../src/report/markdown.js'
import { emptyScorecard } from '../src/verdict/scorecard.js'
import { compilePlanes } from '../src/writeset/planes.js'

const POLICY = `version: 1
planes:
  voting: [oracle/**]
  in_diff: [tests/**]
suite:
  command: pytest oracle
`
const withProduction = (extra = ''): string =>
  POLICY.replace(
    '  in_diff: [tests/**]\n',
    `  in_diff: [tests/**]\n  production: [src/**]\n${extra}`
  )

describe('planes.production and dependencies', () => {
  it('loads, refuses an empty list and a negated glob, and defaults dependencies to base', () => {
    const p = parsePolicy(withProduction(), 'p.yml')
    expect(p.planes.production).toEqual(['src/**'])
    expect(dependencySource(p)).toBe('base')
    expect(dependencySource(parsePolicy(POLICY, 'p.yml'))).toBe('head')
    expect(dependencySource(parsePolicy(`${withProduction()}dependencies: head\n`, 'p.yml'))).toBe(
      'head'
    )
    expect(() =>
      parsePolicy(POLICY.replace('in_diff: [tests/**]', 'in_diff: []\n  production: []'), 'p.yml')
    ).toThrow(/planes\.production/)
    expect(() =>
      parsePolicy(withProduction().replace('[src/**]', '["!docs/**"]'), 'p.yml')
    ).toThrow(/planes\.production\.0.*negated/)
  })

  it('the vote uses the head for production paths only; manifests follow dependencies', () => {
    const p = parsePolicy(withProduction(), 'p.yml')
    const planes = compilePlanes(p)
    const counts = headVersionCounts(p, path => planes.isProduction(path))
    expect(counts('src/fee.py')).toBe(true)
    expect(counts('Makefile')).toBe(false)
    expect(counts('scripts/vote.sh')).toBe(false)
    expect(counts('tests/conftest.py')).toBe(false)
    // A manifest inside production code is the merge base's under dependencies: base.
    expect(counts('src/package.json')).toBe(false)
    const head = parsePolicy(`${withProduction()}dependencies: head\n`, 'p.yml')
    const headCounts = headVersionCounts(head, path => compilePlanes(head).isProduction(path))
    expect(headCounts('package.json')).toBe(true)
    expect(headCounts('Makefile')).toBe(false)
    // Without a plane every path is the head's (today's behaviour).
    const none = parsePolicy(POLICY, 'p.yml')
    expect(headVersionCounts(none, () => false)('Makefile')).toBe(true)
    expect(headVersionCounts(none, () => false)('package.json')).toBe(true)
  })

  it('a name that reads as production in one form only is not production', () => {
    const planes = compilePlanes(parsePolicy(withProduction(), 'p.yml'))
    expect(planes.isProduction('src/a.py')).toBe(true)
    expect(planes.isProduction('ｓrc/a.py')).toBe(false) // fullwidth s
    expect(planes.hasProduction).toBe(true)
    expect(compilePlanes(parsePolicy(POLICY, 'p.yml')).hasProduction).toBe(false)
  })

  it('manifests and build inputs are recognised in any folder', () => {
    for (const f of ['package.json', 'a/b/yarn.lock', 'setup.py', 'requirements-dev.txt', 'go.sum'])
      expect(isManifest(f)).toBe(true)
    expect(isManifest('src/fee.ts')).toBe(false)
    expect(isBuildInput('tsconfig.build.json')).toBe(true)
    expect(isBuildInput('Makefile')).toBe(true)
    expect(isBuildInput('docs/readme.md')).toBe(false)
  })
})

describe('the union of a merge-base and a base-tip policy', () => {
  it('planes.production must agree (a rebase is asked for); dependencies takes the stricter', () => {
    const base = parsePolicy(withProduction(), 'p.yml')
    expect(unitePolicies(base, base).policy.planes.production).toEqual(['src/**'])
    const wider = parsePolicy(withProduction().replace('[src/**]', '[src/**, scripts/**]'), 'p.yml')
    expect(() => unitePolicies(base, wider)).toThrow(/planes\.production.*rebase/)
    expect(() => unitePolicies(parsePolicy(POLICY, 'p.yml'), base)).toThrow(/planes\.production/)
    const head = parsePolicy(`${withProduction()}dependencies: head\n`, 'p.yml')
    expect(unitePolicies(head, base).policy.dependencies).toBe('base')
    expect(unitePolicies(head, base).widened).toContain('dependencies')
    expect(unitePolicies(head, head).policy.dependencies).toBe('head')
  })
})

describe('init: planes.production from the layout', () => {
  const isTest = (f: string): boolean => /(^|\/)(tests?|__tests__)\/|test_|\.test\./.test(f)
  it('finds code folders, Python packages, monorepo sources, Go and root modules', () => {
    expect(
      layoutProduction(
        [
          'src/app/fee.py',
          'lib/util.js',
          'mypkg/__init__.py',
          'mypkg/core.py',
          'tests/__init__.py',
          'tests/test_fee.py',
          'packages/a/src/index.ts',
          'calc.py',
          'setup.py',
          'conftest.py',
          'vite.config.ts',
          'Makefile',
          'README.md',
          'scripts/build.sh'
        ],
        isTest
      )
    ).toEqual(['calc.py', 'lib/**', 'mypkg/**', 'packages/*/src/**', 'src/**'])
    expect(layoutProduction(['go.mod', 'main.go'], isTest)).toEqual(['**/*.go'])
    expect(layoutProduction(['README.md', 'tests/test_x.py'], isTest)).toEqual([])
  })
})

describe('output folders: the base .gitignore and the fixed list', () => {
  const ignored = ignoreMatcher(
    new Map([
      ['.gitignore', 'build/\n*.log\n/dist\n!keep.log\n# comment\n\n'],
      ['web/.gitignore', '.cache\n']
    ])
  )
  it.each([
    ['build/x.txt', true],
    ['a/build/x.txt', true],
    ['build', false], // a file named build: `build/` matches folders only
    ['x.log', true],
    ['keep.log', false],
    ['dist/a.js', true],
    ['a/dist/a.js', false], // anchored to the root
    ['web/.cache/x', true],
    ['.cache/x', false], // web/.gitignore covers web/ only
    ['node_modules/x/y.js', true],
    ['src/__pycache__/a.pyc', true],
    ['build.egg-info/PKG-INFO', true],
    ['.git', true],
    ['tools/x.sh', false],
    ['Makefile', false]
  ])('%s → %s', (path, want) => {
    expect(ignored(path, false)).toBe(want)
  })
})

describe('the production reset and the unmeasured list', () => {
  const view = {
    base: new Map([
      ['Makefile', {}],
      ['src/a.py', {}],
      ['oracle/t.py', {}],
      ['tests/conftest.py', {}]
    ]),
    changed: ['Makefile', 'new.cfg', 'oracle/t.py', 'src/a.py', 'tests/conftest.py'],
    isInstrument: (p: string) => p.startsWith('oracle/'),
    fixturePaths: new Set<string>()
  } as unknown as InstrumentView
  const counts: HeadCounts = p => p.startsWith('src/') && !p.startsWith('oracle/')

  it('resets every changed non-production path the earlier steps left, and lists them', () => {
    const handled = { restore: ['oracle/t.py', 'tests/conftest.py'], remove: [] }
    const reset = productionReset(view, p => counts(p) && !view.isInstrument(p), handled)
    expect(reset).toEqual({ restore: ['Makefile'], remove: ['new.cfg'] })
    expect(unmeasuredPaths(view, [handled, reset])).toEqual([
      'Makefile',
      'new.cfg',
      'tests/conftest.py'
    ])
  })
})

describe('the card: not measured', () => {
  it('lists the paths in a section of their own, escaped', () => {
    const card = emptyScorecard({ version: '0', today: '2026-06-01', policyPath: 'p.yml' })
    card.unmeasured = ['Makefile', 'evil`name\n## Heading', 'x|y']
    const md = renderMarkdown(card)
    expect(md).toContain('### Not measured (3)')
    expect(md).toContain('- `Makefile`')
    expect(md).not.toMatch(/^## Heading/m)
    expect(md).toContain('``evil`name')
  })

  it('has no section when nothing is unmeasured', () => {
    expect(
      renderMarkdown(emptyScorecard({ version: '0', today: '2026-06-01', policyPath: 'p.yml' }))
    ).not.toContain('Not measured')
  })
})

describe('doctor: what the voting tests import must be production code or instrument', () => {
  const files = [
    'src/app/fee.py',
    'src/app/__init__.py',
    'tools/rates.py',
    'oracle/helpers.py',
    'oracle/test_fee.py',
    'src/fee.ts',
    'tools/money.js',
    'oracle/fee.test.ts'
  ]
  const measured = (p: string): boolean => p.startsWith('src/') || p.startsWith('oracle/')
  it('names the imports that are neither, for Python and JavaScript', () => {
    const voting = new Map([
      [
        'oracle/test_fee.py',
        'from app.fee import fee\nimport tools.rates\nfrom . import helpers\nimport json\n'
      ],
      [
        'oracle/fee.test.ts',
        "import { fee } from '../src/fee.js'\nconst money = require('../tools/money')\nimport 'vitest'\n"
      ]
    ])
    expect(unmeasuredImports({ voting, files, pythonRoots: ['', 'src'], measured })).toEqual([
      'oracle/fee.test.ts: tools/money.js',
      'oracle/test_fee.py: tools/rates.py'
    ])
    expect(
      unmeasuredImports({ voting, files, pythonRoots: ['', 'src'], measured: () => true })
    ).toEqual([])
  })

  it('is a blocker finding of diagnose, and absent without the input', () => {
    const base = {
      ref: 'HEAD',
      runs: [],
      files: [],
      planeOf: () => 'source' as const,
      votingGlobs: [],
      globMatches: new Map<string, boolean>(),
      testFiles: [],
      shadowed: [],
      imports: [],
      runnerConfig: [],
      ledgered: new Set<string>(),
      today: '2026-06-01',
      owner: 'o'
    }
    const found = diagnose({ ...base, unmeasuredImports: ['oracle/t.py: tools/x.py'] })
    expect(found.findings).toContainEqual(
      expect.objectContaining({
        level: 'blocker',
        code: 'import-not-production',
        items: ['oracle/t.py: tools/x.py']
      })
    )
    expect(diagnose(base).findings.map(f => f.code)).not.toContain('import-not-production')
  })
})
