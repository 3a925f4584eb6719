import { describe, expect, it } from 'vitest'
import { decodeEscapes, extractFacts, type FileFacts } from '../src/lints/extract.js'
import { judgeHits, judgeList } from '../src/lints/judges.js'
import { findOverlaps } from '../src/lints/overlap.js'
import { languageOf, parserFor, type LanguageId } from '../src/lints/parsers.js'
import { parsePolicy } from '../src/policy/load.js'
import { policyYaml } from './helpers/repo.js'

async function facts(language: LanguageId, source: string): Promise<FileFacts> {
  const tree = (await parserFor(language)).parse(source)
  if (!tree) throw new Error('no tree')
  try {
    return extractFacts(tree, language)
  } finally {
    tree.delete()
  }
}

const values = (f: FileFacts): string[] => f.literals.map(l => l.value)
const modules = (f: FileFacts): string[] => f.imports.map(i => i.module)

describe('extractFacts: Python', () => {
  it('joins adjacent strings, splits f-strings at holes, decodes escapes except in raw strings', async () => {
    const f = await facts(
      'python',
      'x = ("first part, " "second part")\ny = f"{a} and {{braces}} {b!r:>4} tail\\n"\nz = r"raw\\d+" + b"bytes\\x41"\n'
    )
    expect(values(f)).toEqual([
      'first part, second part',
      ' and {braces} ',
      ' tail\n',
      'raw\\d+',
      'bytesA'
    ])
    expect(f.literals.map(l => l.line)).toEqual([1, 2, 2, 3, 3])
  })

  it('skips docstrings and bare strings but keeps nested literals inside f-string holes', async () => {
    const f = await facts(
      'python',
      '"""Module."""\nclass A:\n    """Class."""\n    def f(self):\n        """Method."""\n        return f"{self.m[\'inner key\']}"\n'
    )
    expect(values(f)).toEqual(['inner key'])
  })

  it('reads import, from-import (absolute only) and import calls', async () => {
    const f = await facts(
      'python',
      'import os, openai as oa\nfrom google import genai\nfrom . import local\nfrom .pkg import thing\nm = importlib.import_module("cohere")\npytest.importorskip("litellm")\n'
    )
    expect(modules(f)).toEqual(['os', 'openai', 'google', 'cohere', 'litellm'])
    expect(f.imports[2]?.names).toEqual(['genai'])
    expect(values(f)).toEqual([])
  })
})

describe('extractFacts: JavaScript and TypeScript', () => {
  it('reads static template parts and decodes escapes', async () => {
    const f = await facts(
      'javascript',
      "const a = `Dear ${n}, hello\\u0021 ${`inner ${x}`}`\nconst b = 'it\\'s'\n"
    )
    expect(values(f)).toEqual(['Dear ', ', hello! ', 'inner ', "it's"])
  })

  it('treats import sources, require, dynamic import, export-from and module mocks as module paths', async () => {
    const f = await facts(
      'typescript',
      "import x = require('openai')\nimport type { T } from './types'\nexport * from '@langchain/core'\nconst m = await import(`@anthropic-ai/sdk`)\nvi.mock('./dep')\ndeclare module 'virtual:mod' { const v = 'inside module body' }\n'use strict'\n"
    )
    expect(modules(f)).toEqual(['openai', './types', '@langchain/core', '@anthropic-ai/sdk'])
    expect(values(f)).toEqual(['inside module body'])
  })

  it('parses JSX attributes in TSX', async () => {
    const f = await facts(
      'tsx',
      'export const C = () => <a href="https://api.openai.com/v1" title={`t ${x}`}>text</a>\n'
    )
    expect(values(f)).toEqual(['https://api.openai.com/v1', 't '])
    expect(
      judgeHits(f, judgeList(parsePolicy(policyYaml(), 'p.yml').lints)).map(h => h.what)
    ).toEqual(['api.openai.com'])
  })
})

describe('helpers', () => {
  it('maps extensions to grammars', () => {
    expect(
      ['a.py', 'b.mjs', 'c.cts', 'd.tsx', 'e.go', 'Makefile', 'f.d.ts'].map(languageOf)
    ).toEqual(['python', 'javascript', 'typescript', 'tsx', undefined, undefined, 'typescript'])
  })

  it('decodes the common escapes and keeps unknown ones', () => {
    expect(decodeEscapes('a\\tb\\x41\\u00e9\\u{1F600}\\q\\\\')).toBe('a\tbAé😀\\q\\')
  })

  it('finds production literals inside test literals, once per pair, with a shared prefix bucket', () => {
    const prod = ['Error: first', 'Error: second one', 'Error: '].map((value, line) => ({
      value,
      path: 'p',
      line
    }))
    const tests = [{ value: 'xx Error: second one!', path: 't', line: 9 }]
    expect(findOverlaps(prod, tests, 6).map(o => o.production.value)).toEqual([
      'Error: second one',
      'Error: '
    ])
  })
})
