// The generated node suite of the node benches (bench/reach-node.mjs, bench/cover-node.mjs):
// 40 test files of 25 tests each over 40 product modules, for vitest (TypeScript), jest and
// node:test with the gate's reporter, so that their figures compare.
import { mkdirSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { tempDir, writeFiles } from './lib.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const reporters = join(here, '..', 'src', 'reporters', 'node')
const require = createRequire(import.meta.url)
export const FILES = 40
export const TESTS = 25

function suite(ext, runner) {
  const files = { 'package.json': '{"name": "bench", "private": true}\n' }
  for (let f = 0; f < FILES; f++) {
    files[`src/m${f}.${ext}`] = [
      `${ext === 'ts' ? 'export ' : ''}function area${f}(w${ext === 'ts' ? ': number' : ''}, h${ext === 'ts' ? ': number' : ''}) {`,
      '  const parts = [w, h].map(x => Math.abs(x))',
      '  return JSON.parse(JSON.stringify({ a: parts[0] * parts[1] })).a',
      '}',
      ext === 'ts' ? '' : `module.exports = { area${f} }`,
      ''
    ].join('\n')
    const head =
      runner === 'node-test'
        ? `const test = require('node:test')\nconst assert = require('node:assert')\nconst { area${f} } = require('../src/m${f}.js')`
        : runner === 'vitest'
          ? `import { expect, test } from 'vitest'\nimport { area${f} } from '../src/m${f}'`
          : `const { area${f} } = require('../src/m${f}.js')`
    const body = []
    for (let t = 0; t < TESTS; t++) {
      body.push(
        runner === 'node-test'
          ? `test('t${t}', () => { assert.deepStrictEqual({ v: area${f}(${t}, 3) }, { v: ${t * 3} }) })`
          : `test('t${t}', () => { expect(area${f}(${t}, 3)).toBe(${t * 3}); expect([area${f}(1, ${t})]).toEqual([${t}]) })`
      )
    }
    files[`test/m${f}.test.${ext}`] = `${head}\n${body.join('\n')}\n`
  }
  return files
}

export const RUNNERS = {
  vitest: {
    ext: 'ts',
    link: ['vitest'],
    command: `node node_modules/vitest/vitest.mjs run test/ --reporter=dot --reporter=${reporters}/vitest.mjs`
  },
  jest: {
    ext: 'js',
    link: ['jest'],
    command: `node node_modules/jest/bin/jest.js test/ --ci --reporters=${reporters}/jest.js`
  },
  'node-test': {
    ext: 'js',
    link: [],
    command: `${process.execPath} --test --test-reporter=dot --test-reporter-destination=stdout --test-reporter=${reporters}/node-test.mjs --test-reporter-destination=stdout test/`
  }
}

/** A temporary project holding the suite for one runner, its runner linked in. */
export function suiteProject(prefix, name, r) {
  const dir = tempDir(`${prefix}${name}-`)
  writeFiles(dir, suite(r.ext, name))
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  for (const pkg of r.link)
    symlinkSync(dirname(require.resolve(`${pkg}/package.json`)), join(dir, 'node_modules', pkg))
  return dir
}
