// voting_edits: append end to end, on real runners: the most common honest agent patch (a
// fix plus a test appended to an existing test file) merges, with the appended test run as
// a diagnostic (and probed on the base); edited assertions, changed helpers or module
// constants and deleted tests are protected-path naming what changed. pytest, vitest and
// jest (with jest-junit), with the tests in the repository's existing test folder.
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkSetup, SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

type Runner = 'pytest' | 'vitest' | 'jest'

function policy(runner: Runner, edits: 'append' | 'none' = 'append'): string {
  const command =
    runner === 'pytest'
      ? SUITE_COMMANDS.pytest(pythonWithPytest(), 'tests')
      : SUITE_COMMANDS[runner]('tests')
  const setup = runner === 'pytest' ? '' : `  setup: ${JSON.stringify(linkSetup(runner))}\n`
  return `version: 1
voting_edits: ${edits}
protected: [.github/**]
planes:
  voting: [tests/**]
  in_diff: [agent-tests/**]
suite:
  command: ${JSON.stringify(command)}
  timeout: 120
  reruns: 0
${setup}`
}

/** Product with a bug in an edge the base's tests do not reach, and its tests. */
const PROJECTS: Record<
  Runner,
  { files: Record<string, string>; fix: [string, string, string]; test: string }
> = {
  pytest: {
    files: {
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'shop/__init__.py': '',
      'shop/fees.py': 'def fee(amount):\n    return amount + 3 if amount > 0 else 3\n',
      'tests/test_fees.py':
        'from shop.fees import fee\n\nBASE = 3\n\n\ndef expected(amount):\n    return amount + BASE\n\n\ndef test_small():\n    assert fee(10) == expected(10)\n\n\ndef test_large():\n    assert fee(1000) == 1003\n'
    },
    fix: ['shop/fees.py', 'else 3', 'else 0'],
    test: '\n\ndef test_zero_is_free():\n    assert fee(0) == 0\n'
  },
  vitest: {
    files: {
      'package.json': '{"type": "module"}\n',
      'src/fee.js': 'export function fee(amount) {\n  return amount > 0 ? amount + 3 : 3\n}\n',
      'tests/fee.test.js':
        "import { describe, expect, it } from 'vitest'\nimport { fee } from '../src/fee.js'\n\nconst BASE = 3\n\ndescribe('fee', () => {\n  it('adds the base', () => {\n    expect(fee(10)).toBe(10 + BASE)\n  })\n\n  it('handles large amounts', () => {\n    expect(fee(1000)).toBe(1003)\n  })\n})\n"
    },
    fix: ['src/fee.js', ': 3\n', ': 0\n'],
    test: "\n  it('zero is free', () => {\n    expect(fee(0)).toBe(0)\n  })\n"
  },
  jest: {
    files: {
      'package.json': '{"name": "shop"}\n',
      'src/fee.js':
        'function fee(amount) {\n  return amount > 0 ? amount + 3 : 3\n}\nmodule.exports = { fee }\n',
      'tests/fee.test.js':
        "const { fee } = require('../src/fee')\n\nconst BASE = 3\n\ndescribe('fee', () => {\n  it('adds the base', () => {\n    expect(fee(10)).toBe(10 + BASE)\n  })\n\n  it('handles large amounts', () => {\n    expect(fee(1000)).toBe(1003)\n  })\n})\n"
    },
    fix: ['src/fee.js', ': 3\n', ': 0\n'],
    test: "\n  it('zero is free', () => {\n    expect(fee(0)).toBe(0)\n  })\n"
  }
}

const TEST_FILE: Record<Runner, string> = {
  pytest: 'tests/test_fees.py',
  vitest: 'tests/fee.test.js',
  jest: 'tests/fee.test.js'
}

/** Appends the new test where an agent would: at the end (Python) or inside the describe. */
function withAppendedTest(runner: Runner, text: string): string {
  const { test } = PROJECTS[runner]
  if (runner === 'pytest') return text + test
  const end = text.lastIndexOf('})')
  return `${text.slice(0, end).trimEnd()}\n${test}${text.slice(end)}`
}

async function judge(
  runner: Runner,
  head: (files: Record<string, string>) => Record<string, string>,
  edits: 'append' | 'none' = 'append',
  extraBase: Record<string, string> = {}
): Promise<Scorecard> {
  const repo = new TestRepo(`og-append-${runner}-`)
  repos.push(repo)
  const files = { ...PROJECTS[runner].files, ...extraBase }
  repo.write({
    '.gitignore': 'node_modules/\n',
    '.github/oracle-gate.yml': policy(runner, edits),
    ...files
  })
  const base = repo.commit('base')
  repo.branch('agent')
  repo.write(head({ ...files }))
  repo.commit('agent patch')
  repo.checkout('main')
  return check({
    repoDir: repo.dir,
    base,
    head: 'agent',
    today: '2026-12-01',
    log: memoryLogger(),
    env: process.env
  })
}

function fixed(runner: Runner, files: Record<string, string>): Record<string, string> {
  const [path, from, to] = PROJECTS[runner].fix
  return { [path]: (files[path] ?? '').replace(from, to) }
}

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => `${r.rule} ${r.path ?? ''}`)

describe.each(['pytest', 'vitest', 'jest'] as const)('voting_edits: append with %s', runner => {
  const file = TEST_FILE[runner]

  it('a fix plus a test appended to the existing test file merges; the added test is a diagnostic that fails on the base', async () => {
    const card = await judge(runner, files => ({
      ...fixed(runner, files),
      [file]: withAppendedTest(runner, files[file] ?? '')
    }))
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    const row = card.write_set.find(r => r.path === file)
    expect(row).toMatchObject({ plane: 'voting', action: 'continue' })
    // The vote ran the base's two tests; the appended one ran in the patch's own run.
    expect(card.votes.passed).toBe(2)
    const added = Object.keys(card.diagnostics.in_diff ?? {}).filter(id => /zero/.test(id))
    expect(added).toHaveLength(1)
    expect(card.diagnostics.in_diff?.[added[0] ?? '']).toMatch(/pass/)
    // Probed on the base's code, the new test fails: it discriminates.
    expect(card.diagnostics.non_discriminating).toEqual([])
  })

  it('the same patch under voting_edits: none is protected-path (file-level locking)', async () => {
    const card = await judge(
      runner,
      files => ({ ...fixed(runner, files), [file]: withAppendedTest(runner, files[file] ?? '') }),
      'none'
    )
    expect(card.verdict).toBe('policy')
    expect(failures(card)).toContain(`protected-path ${file}`)
  })

  it('an edited existing assertion is protected-path naming the test', async () => {
    const card = await judge(runner, files => ({
      [file]: withAppendedTest(runner, (files[file] ?? '').replace('1003', '1000'))
    }))
    expect(card.verdict).toBe('policy')
    const reason = card.reasons.find(r => r.rule === 'protected-path')
    expect(reason?.path).toBe(file)
    expect(reason?.message).toMatch(/large/)
    expect(reason?.message).toMatch(/was changed or removed/)
    expect(reason?.message).toMatch(/may add new test files/)
  })

  it('a changed module-level helper constant is protected-path naming the statement', async () => {
    const card = await judge(runner, files => ({
      ...fixed(runner, files),
      [file]: (files[file] ?? '').replace('BASE = 3', 'BASE = 0')
    }))
    expect(card.verdict).toBe('policy')
    const reason = card.reasons.find(r => r.rule === 'protected-path')
    expect(reason?.message).toMatch(/a statement outside the tests changed \(base line \d+\)/)
  })

  it('a deleted test is protected-path naming it', async () => {
    const card = await judge(runner, files => {
      const text = files[file] ?? ''
      const cut =
        runner === 'pytest'
          ? text.replace(/\n\n\ndef test_large\(\):\n.*\n$/, '\n')
          : text.replace(/\n\n {2}it\('handles large amounts'[^]*?\n {2}\}\)\n/, '\n')
      expect(cut).not.toBe(text)
      return { ...fixed(runner, files), [file]: cut }
    })
    expect(card.verdict).toBe('policy')
    expect(card.reasons.find(r => r.rule === 'protected-path')?.message).toMatch(/large/)
  })
})

describe('voting_edits: append with new files under the voting globs (pytest)', () => {
  it('a new test file beside the existing ones merges, its tests as diagnostics', async () => {
    const card = await judge('pytest', files => ({
      ...fixed('pytest', files),
      'tests/test_zero.py':
        'from shop.fees import fee\n\n\ndef test_zero_is_free():\n    assert fee(0) == 0\n'
    }))
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.votes.passed).toBe(2)
    expect(Object.keys(card.diagnostics.in_diff ?? {})).toEqual([
      'tests/test_zero.py::test_zero_is_free'
    ])
  })

  it('a new conftest.py or a support file under the voting globs is not an added test', async () => {
    const card = await judge('pytest', files => ({
      ...fixed('pytest', files),
      'tests/conftest.py': 'import pytest\n',
      'tests/helpers.py': 'X = 1\n'
    }))
    expect(card.verdict).toBe('policy')
    expect(failures(card)).toEqual(
      expect.arrayContaining([
        'protected-path tests/conftest.py',
        'protected-path tests/helpers.py'
      ])
    )
    const helper = card.reasons.find(r => r.path === 'tests/helpers.py')
    expect(helper?.message).toMatch(/not a test file/)
  })

  it('a conftest.py or support module of the base that gains a test stays locked as a whole', async () => {
    const extra = {
      'tests/conftest.py': 'import pytest\n',
      'tests/helpers.py': 'def double(x):\n    return 2 * x\n'
    }
    const addTest = '\n\ndef test_smuggled():\n    assert True\n'
    const card = await judge(
      'pytest',
      files => ({
        ...fixed('pytest', files),
        'tests/conftest.py': `${extra['tests/conftest.py']}${addTest}`,
        'tests/helpers.py': `${extra['tests/helpers.py']}${addTest}`
      }),
      'append',
      extra
    )
    expect(card.verdict).toBe('policy')
    expect(failures(card)).toEqual(
      expect.arrayContaining([
        'protected-path tests/conftest.py',
        'protected-path tests/helpers.py'
      ])
    )
    expect(card.write_set.filter(r => r.action === 'continue').map(r => r.path)).toEqual([
      'shop/fees.py'
    ])
  })
})
