import { describe, expect, it } from 'vitest'
import { byRule, lintScenario } from './lints-helpers.js'
import { findHost, DEFAULT_JUDGE_HOSTS } from '../src/lints/judges.js'

const base = { 'src/app.py': 'X = 1\n', 'src/app.ts': 'export const x = 1\n' }

async function judge(
  head: Record<string, string>,
  extra: { base?: Record<string, string>; policy?: string } = {}
) {
  const run = await lintScenario({ base: { ...base, ...extra.base }, head, policy: extra.policy })
  return byRule(run.reasons, 'judge-import')
}

describe("judge-import fires on the patch's test files", () => {
  it('Python: import openai, from anthropic import ..., from google import genai', async () => {
    const found = await judge({
      'tests/test_grade.py':
        'import os\nimport openai\nfrom anthropic import Anthropic\nfrom google import genai\n\n\ndef test_x():\n    pass\n',
      'oracle/properties/test_judge.py':
        'def test_y():\n    import langchain_openai.chat_models as m\n'
    })
    expect(found.map(r => [r.path, r.line, r.level])).toEqual([
      ['oracle/properties/test_judge.py', 2, 'failure'],
      ['tests/test_grade.py', 2, 'failure'],
      ['tests/test_grade.py', 3, 'failure'],
      ['tests/test_grade.py', 4, 'failure']
    ])
    expect(found[2]?.message).toContain('imports anthropic')
    expect(found[3]?.message).toContain('imports google.genai')
  })

  it("JavaScript: require('openai') and TypeScript: dynamic import('@anthropic-ai/sdk')", async () => {
    const found = await judge({
      'tests/grade.test.js': "const OpenAI = require('openai')\n",
      'src/grade.test.ts':
        "it('grades', async () => {\n  const { default: Anthropic } = await import('@anthropic-ai/sdk')\n})\n",
      'src/View.test.tsx':
        "import { generateText } from 'ai'\nexport * from '@langchain/core/messages'\nit('x', () => <div />)\n"
    })
    expect(found.map(r => [r.path, r.line])).toEqual([
      ['src/View.test.tsx', 1],
      ['src/View.test.tsx', 2],
      ['src/grade.test.ts', 2],
      ['tests/grade.test.js', 1]
    ])
    expect(found[2]?.message).toContain('@anthropic-ai/sdk')
  })

  it('an LLM API host in a string literal (also inside an f-string)', async () => {
    const found = await judge({
      'tests/test_http.py':
        'import requests\nBASE = "https://api.anthropic.com/v1/messages"\n\n\ndef test_z(model):\n    requests.post(f"https://api.openai.com/v1/{model}")\n',
      'src/http.test.ts': "await fetch(`https://${'x'}.openai.azure.com/openai/deployments`)\n"
    })
    expect(found.map(r => [r.path, r.line])).toEqual([
      ['src/http.test.ts', 1],
      ['tests/test_http.py', 2],
      ['tests/test_http.py', 6]
    ])
    expect(found[1]?.message).toContain('api.anthropic.com')
  })

  it('extends the list with lints.judge_modules, or replaces it', async () => {
    const head = { 'tests/test_in_house.py': 'import corp_llm.client\nimport openai\n' }
    const extended = await judge(head, {
      policy: 'lints:\n  judge_modules: [corp_llm, llm.corp.example]\n'
    })
    expect(extended.map(r => r.line)).toEqual([1, 2])
    const replaced = await judge(head, {
      policy: 'lints:\n  judge_modules: [corp_llm]\n  judge_modules_replace: true\n'
    })
    expect(replaced.map(r => r.line)).toEqual([1])
    const host = await judge(
      { 'tests/test_host.py': 'URL = "https://llm.corp.example/v1"\n' },
      { policy: 'lints:\n  judge_modules: [llm.corp.example]\n' }
    )
    expect(host.map(r => r.line)).toEqual([1])
  })
})

describe('judge-import stays quiet', () => {
  it('for modules named in comments, docstrings and unrelated strings, and for production code', async () => {
    const found = await judge({
      'tests/test_quiet.py':
        '"""We deliberately do not use openai or api.openai.com here."""\n# import openai\nPROVIDER = "openai"\nfrom mylib.openai_compat import shim\nimport openai_mock_free\n',
      'tests/quiet.test.ts':
        "// import OpenAI from 'openai'\nconst provider = 'anthropic'\nimport { fake } from './openai'\nconst url = 'https://api.openai.com.example.org/'\n",
      'src/llm.py': 'import openai\n',
      'tests/quiet.test.js':
        "/* require('openai') */\nconst name = 'ollama'\nconst local = require('./anthropic-fixtures.json')\nit.todo('@anthropic-ai/sdk')\n",
      'src/Quiet.test.tsx':
        '// import { generateText } from \'ai\'\nit(\'x\', () => <a title="openai" href="/ai">ai</a>)\n',
      'src/llm.ts': "import OpenAI from 'openai'\n"
    })
    expect(found).toEqual([])
  })

  it('when the rule is off; warn turns failures into warnings', async () => {
    const head = { 'tests/test_grade.py': 'import openai\n' }
    expect(await judge(head, { policy: "lints:\n  judge-import: 'off'\n" })).toEqual([])
    const warned = await judge(head, { policy: 'lints:\n  judge-import: warn\n' })
    expect(warned.map(r => r.level)).toEqual(['warning'])
  })
})

describe('judge-import on what the base already had', () => {
  it('a judge already imported by the base version of a changed test is a warning, a new one a failure', async () => {
    const found = await judge(
      { 'tests/test_grade.py': 'import openai\nimport anthropic\n\n\ndef test_new():\n    pass\n' },
      { base: { 'tests/test_grade.py': 'import openai\n' } }
    )
    expect(found.map(r => [r.line, r.level])).toEqual([
      [1, 'warning'],
      [2, 'failure']
    ])
    expect(found[0]?.message).toContain('already did at the merge base')
  })

  it('caps the reasons per file without ever dropping a new judge', async () => {
    const old = [
      'openai',
      'anthropic',
      'cohere',
      'mistralai',
      'litellm',
      'groq',
      'ollama',
      'vertexai',
      'llama_index',
      'langchain',
      'langchain_core'
    ]
      .map(m => `import ${m}\n`)
      .join('')
    const found = await judge(
      { 'tests/test_many.py': `${old}import google.genai\n` },
      { base: { 'tests/test_many.py': old } }
    )
    expect(found).toHaveLength(10)
    expect(found.filter(r => r.level === 'failure').map(r => r.line)).toEqual([12])
    expect(found[9]?.message).toContain('2 more in this file')
  })

  it('follows a rename: the judge the old path held is a warning, not a failure', async () => {
    const old =
      'import openai\n\n\ndef test_one():\n    assert 1 + 1 == 2\n\n\ndef test_two():\n    assert 2 * 2 == 4\n'
    const run = await lintScenario({
      base: { ...base, 'tests/test_old_name.py': old },
      head: { 'tests/test_new_name.py': old + '\n\ndef test_three():\n    assert 3 == 3\n' },
      remove: ['tests/test_old_name.py']
    })
    const found = byRule(run.reasons, 'judge-import')
    expect(found.map(r => [r.path, r.line, r.level])).toEqual([
      ['tests/test_new_name.py', 1, 'warning']
    ])
  })

  it('an unchanged base test with a judge is a warning about the base', async () => {
    const run = await lintScenario({
      base: {
        ...base,
        'tests/test_legacy_eval.py': 'from openai import OpenAI\n',
        'tests/test_plain.py': '# openai\n'
      },
      head: { 'src/app.py': 'X = 2\n' }
    })
    const found = byRule(run.reasons, 'judge-import')
    expect(found.map(r => [r.path, r.line, r.level])).toEqual([
      ['tests/test_legacy_eval.py', 1, 'warning']
    ])
    expect(found[0]?.message).toContain('does not change')
  })
})

describe('findHost', () => {
  it('matches hosts and their subdomains, not longer names', () => {
    expect(findHost('https://api.openai.com/v1', DEFAULT_JUDGE_HOSTS)).toBe('api.openai.com')
    expect(findHost('API.OPENAI.COM:443', DEFAULT_JUDGE_HOSTS)).toBe('api.openai.com')
    expect(findHost('https://eu.api.openai.com', DEFAULT_JUDGE_HOSTS)).toBe('api.openai.com')
    expect(findHost('https://api.openai.com.evil.example', DEFAULT_JUDGE_HOSTS)).toBeUndefined()
    expect(findHost('https://xapi.openai.com', DEFAULT_JUDGE_HOSTS)).toBeUndefined()
    expect(findHost('see the openai docs', DEFAULT_JUDGE_HOSTS)).toBeUndefined()
  })
})
