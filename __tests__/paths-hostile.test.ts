// Hostile path names (issue 12): a path is matched as written (a backslash is an ordinary
// character on Linux), globs match every character, a name that reads as an instrument
// path in another Unicode form is instrument, a name with hidden characters is never
// silently source, and a negated plane glob is refused at policy load.
import { describe, expect, it } from 'vitest'
import { parsePolicy, PolicyError } from '../src/policy/load.js'
import type { Change } from '../src/types.js'
import { classifyChange } from '../src/writeset/classify.js'
import { compilePlanes, normalisePath, pathForms, suspiciousName } from '../src/writeset/planes.js'
import { policyYaml } from './helpers/repo.js'

const policy = parsePolicy(policyYaml(), '.github/oracle-gate.yml')
const planes = compilePlanes(policy)
const classify = (path: string, status: Change['status'] = 'added'): [string, string, string] => {
  const c = classifyChange({ path, status }, { planes, ungovernedTest: 'error' })
  return [c.plane, c.action, c.row]
}

describe('paths are matched as written', () => {
  it('keeps a backslash: it is part of a Linux file name, not a separator', () => {
    expect(normalisePath('oracle\\properties\\conftest.py')).toBe('oracle\\properties\\conftest.py')
    // A root file whose name holds backslashes is not inside oracle/ (pytest never loads it
    // as oracle/properties/conftest.py); before, the rewrite made it look protected.
    expect(planes.planeOf('oracle\\properties\\test_a.py')).not.toBe('voting')
    expect(planes.planeOf('oracle/properties/a\\b.py')).toBe('voting')
  })

  it.each(['\n', '\r', '\u2028', '\u2029', '\u0085', '\u001b'])(
    'globs match names holding %j (oracle/** and **/test_*.py)',
    ch => {
      expect(planes.planeOf(`oracle/properties/x${ch}y.py`)).toBe('voting')
      expect(planes.planeOf(`oracle/a${ch}/b.py`)).toBe('protected')
      expect(planes.isTestLike(`tests/deep${ch}/test_x.py`)).toBe(true)
    }
  )

  it('a decomposed, fullwidth or zero-width-spaced name of an instrument path is instrument', () => {
    expect(planes.planeOf('oracle/properties/test_cafe\u0301.py')).toBe('voting')
    expect(planes.planeOf('\uff4fracle/x.py')).toBe('protected') // fullwidth o
    expect(planes.planeOf('ora\u200bcle/properties/test_a.py')).toBe('voting')
    expect(classify('ora\u200bcle/properties/test_a.py')).toEqual([
      'voting',
      'reject',
      'instrument'
    ])
  })

  it('a name with hidden or compatibility characters is never silently source', () => {
    expect(suspiciousName('src/app.py')).toBe(false)
    expect(suspiciousName('src/caf\u00e9.py')).toBe(false)
    expect(suspiciousName('src/cafe\u0301.py')).toBe(false) // NFD is only composition
    expect(suspiciousName('src/a\nb.py')).toBe(true)
    expect(suspiciousName('src/\ufb01le.py')).toBe(true) // the fi ligature
    expect(classify('src/a\u2028b.py')).toEqual(['other', 'reject', 'suspicious-name'])
    expect(classify('src/\ufb01le.py')).toEqual(['other', 'reject', 'suspicious-name'])
    expect(classify('src/caf\u00e9.py')).toEqual(['source', 'continue', 'source'])
    expect(classify('src/a\nb.py', 'deleted')).toEqual(['source', 'ignore', 'deleted'])
    const c = classifyChange(
      { path: 'src/a\u2028b.py', status: 'added' },
      { planes, ungovernedTest: 'error' }
    )
    expect(c.rule).toBe('protected-path')
    expect(c.message).toContain('\\u{2028}')
    expect(c.message).not.toContain('\u2028')
  })

  it('lists every form once, the raw name first', () => {
    expect(pathForms('a/b.py')).toEqual(['a/b.py'])
    expect(pathForms('cafe\u0301')[0]).toBe('cafe\u0301')
    expect(pathForms('cafe\u0301')).toContain('caf\u00e9')
  })
})

describe('negated plane globs are refused at policy load', () => {
  it.each([
    [
      'planes.voting.1',
      (y: string) =>
        y.replace('voting: [oracle/properties/**]', 'voting: [oracle/properties/**, "!docs/**"]')
    ],
    [
      'protected.1',
      (y: string) => y.replace('  - oracle/**\n', '  - oracle/**\n  - "!oracle/tmp/**"\n')
    ],
    ['planes.in_diff.0', (y: string) => y.replace('in_diff: [tests/**]', 'in_diff: ["!src/**"]')]
  ])('%s', (key, edit) => {
    const text = edit(policyYaml())
    let error: unknown
    try {
      parsePolicy(text, '.github/oracle-gate.yml')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(PolicyError)
    const problem = (error as PolicyError).problems[0]
    expect(problem?.key).toBe(key)
    const line = text.split('\n').findIndex(l => l.includes('"!')) + 1
    expect(problem?.line).toBe(line)
    expect((error as PolicyError).message).toMatch(
      /^invalid policy: \.github\/oracle-gate\.yml:\d+:\d+: /
    )
    expect((error as PolicyError).message).toContain('negated glob')
  })

  it('an extglob with ! inside a pattern is not a negation and loads', () => {
    const p = parsePolicy(
      policyYaml().replace('drafts: [drafts/**]', 'drafts: ["drafts/!(keep)/**"]'),
      'p.yml'
    )
    expect(compilePlanes(p).planeOf('drafts/x/a.py')).toBe('drafts')
  })
})
