// literal-overlap counts a test's regular expression literals: a test that checks the
// patch's new message with toThrow(/…/) repeats it as surely as one that quotes it. A
// pattern that matches it only by metacharacters, or one the base test already had, is not
// a copy.
import { describe, expect, it } from 'vitest'
import { regexRuns } from '../src/lints/extract.js'
import { parserFor } from '../src/lints/parsers.js'
import { byRule, lintScenario } from './lints-helpers.js'

const PROD = 'src/cart.ts'
const TEST = 'src/cart.test.ts'
const code = (message: string): string =>
  `export function add(qty: number): number {\n  if (qty <= 0) throw new Error('${message}')\n  return qty\n}\n`
const spec = (pattern: string): string =>
  `import { expect, it } from 'vitest'\nimport { add } from './cart'\n\nit('rejects', () => {\n  expect(() => add(-1)).toThrow(${pattern})\n})\n`

async function runs(source: string): Promise<string[]> {
  const tree = (await parserFor('typescript')).parse(`const r = ${source}\n`)!
  try {
    const regex = tree.rootNode.descendantsOfType('regex')[0]!
    return regexRuns(regex.childForFieldName('pattern')!).map(r => r.value)
  } finally {
    tree.delete()
  }
}

describe('regular expression literals in literal-overlap', () => {
  it('reads the literal runs of a pattern, escaped punctuation as itself', async () => {
    expect(await runs('/quantity must be positive\\./')).toEqual(['quantity must be positive.'])
    expect(await runs('/^Error: (?:bad|worse) input\\(s\\)$/i')).toEqual([
      'Error: ',
      'bad',
      'worse',
      ' input(s)'
    ])
    expect(await runs('/colou?r [a-z]+ \\d{2} end/')).toEqual(['colo', 'r ', ' ', ' end'])
  })

  it('fires when a test repeats the patch’s new message as a regular expression', async () => {
    const { reasons } = await lintScenario({
      base: { [PROD]: code('placeholder message') },
      head: {
        [PROD]: code('quantity must be a positive integer'),
        [TEST]: spec('/quantity must be a positive integer/')
      }
    })
    const found = byRule(reasons, 'literal-overlap')
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ level: 'failure', path: TEST, line: 5 })
    expect(found[0]?.message).toContain('"quantity must be a positive integer"')
  })

  it('stays quiet for a pattern that spells the message only through metacharacters', async () => {
    const { reasons } = await lintScenario({
      base: { [PROD]: code('placeholder message') },
      head: {
        [PROD]: code('quantity must be a positive integer'),
        [TEST]: spec('/quantity\\s+must\\s+be\\s+a\\s+positive\\s+integer/')
      }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })

  it('stays quiet when the base test already held the pattern', async () => {
    const { reasons } = await lintScenario({
      base: {
        [PROD]: code('placeholder message'),
        [TEST]: spec('/quantity must be a positive integer/')
      },
      head: {
        [PROD]: code('quantity must be a positive integer'),
        [TEST]: `${spec('/quantity must be a positive integer/')}// touched\n`
      }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })
})
