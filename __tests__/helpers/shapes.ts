// Generated repositories shaped like real ones (pytest with tests beside a src/ layout
// package, vitest with tests beside the code, jest with jest-junit in __tests__), with the
// runner installed as a checkout would have it, and a CLI runner capturing output.
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { main } from '../../src/cli/main.js'
import { pythonWithPytest } from './python.js'
import { TestRepo } from './repo.js'
import { linkRunner, packageDir } from './runners.js'

export type Runner = 'pytest' | 'vitest' | 'jest'

const LOCK = '{"name": "shop", "lockfileVersion": 3, "requires": true, "packages": {}}\n'

export const SHAPES: Record<
  Runner,
  {
    files: Record<string, string>
    test: string
    fix: [string, string, string]
    append: (t: string) => string
    voting: string[]
  }
> = {
  pytest: {
    files: {
      'pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n',
      'src/shop/__init__.py': '',
      'src/shop/fees.py': 'def fee(amount):\n    return amount + 3 if amount > 0 else 3\n',
      'src/shop/test_fees.py':
        'from shop.fees import fee\n\n\ndef test_small():\n    assert fee(10) == 13\n\n\ndef test_large():\n    assert fee(1000) == 1003\n'
    },
    test: 'src/shop/test_fees.py',
    fix: ['src/shop/fees.py', 'else 3', 'else 0'],
    append: t => `${t}\n\ndef test_zero_is_free():\n    assert fee(0) == 0\n`,
    voting: ['src/**/test_*.py']
  },
  vitest: {
    files: {
      'package.json': '{"name": "shop", "type": "module", "devDependencies": {"vitest": "*"}}\n',
      'package-lock.json': LOCK,
      'src/fee.js': 'export function fee(amount) {\n  return amount > 0 ? amount + 3 : 3\n}\n',
      'src/fee.test.js':
        "import { describe, expect, it } from 'vitest'\nimport { fee } from './fee.js'\n\ndescribe('fee', () => {\n  it('adds the base', () => {\n    expect(fee(10)).toBe(13)\n  })\n})\n"
    },
    test: 'src/fee.test.js',
    fix: ['src/fee.js', ': 3\n', ': 0\n'],
    append: t =>
      t.replace(
        /\}\)\n$/,
        "\n  it('zero is free', () => {\n    expect(fee(0)).toBe(0)\n  })\n})\n"
      ),
    voting: ['src/**/*.test.js']
  },
  jest: {
    files: {
      'package.json': '{"name": "shop", "devDependencies": {"jest": "*", "jest-junit": "*"}}\n',
      'package-lock.json': LOCK,
      'lib/fee.js':
        'function fee(amount) {\n  return amount > 0 ? amount + 3 : 3\n}\nmodule.exports = { fee }\n',
      '__tests__/fee.test.js':
        "const { fee } = require('../lib/fee')\n\ndescribe('fee', () => {\n  it('adds the base', () => {\n    expect(fee(10)).toBe(13)\n  })\n})\n"
    },
    test: '__tests__/fee.test.js',
    fix: ['lib/fee.js', ': 3\n', ': 0\n'],
    append: t =>
      t.replace(
        /\}\)\n$/,
        "\n  it('zero is free', () => {\n    expect(fee(0)).toBe(0)\n  })\n})\n"
      ),
    voting: ['__tests__/**']
  }
}

/** PATH with the interpreter that has pytest first, so init's `python3` is that one. */
export function testEnv(): NodeJS.ProcessEnv {
  const python = pythonWithPytest()
  const dir = python.includes('/') ? python.slice(0, python.lastIndexOf('/')) : null
  return dir === null
    ? { ...process.env }
    : { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` }
}

/** A generated repository with its runner installed (linked), as a checkout after install. */
export function shapedRepo(runner: Runner, repos: TestRepo[]): TestRepo {
  const repo = new TestRepo(`og-init-${runner}-`)
  repos.push(repo)
  repo.write({ '.gitignore': 'node_modules/\n__pycache__/\n', ...SHAPES[runner].files })
  if (runner !== 'pytest') {
    linkRunner(repo, runner)
    const bin = runner === 'vitest' ? 'vitest/vitest.mjs' : 'jest/bin/jest.js'
    repo.symlink(
      `node_modules/.bin/${runner}`,
      join(packageDir(runner), bin.split('/').slice(1).join('/'))
    )
  }
  repo.commit('project')
  return repo
}

export async function runCli(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv
): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough()
  const err = new PassThrough()
  let o = ''
  let e = ''
  out.on('data', d => (o += String(d)))
  err.on('data', d => (e += String(d)))
  const code = await main(argv, { stdout: out, stderr: err, cwd, env })
  return { code, out: o, err: e }
}
