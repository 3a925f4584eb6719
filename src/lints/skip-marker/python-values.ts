// The values skip-marker's Python evaluation gives expressions (python.ts): what pytest and
// unittest export, what a member of each is, and the syntax helpers the evaluation shares.
// Pure data and functions of syntax nodes.
import type { HelperExports } from './markers.js'

export type Value =
  | { kind: 'module'; name: 'pytest' | 'mark' | 'unittest' }
  | { kind: 'marker'; label: string }
  | { kind: 'helpers'; module: string; exports: HelperExports }
  | { kind: 'string'; value: string }

const PYTEST_MARKERS = new Set(['skip', 'xfail', 'importorskip'])
const MARK_MARKERS = new Set(['skip', 'skipif', 'xfail'])
const UNITTEST_MARKERS = new Set(['skip', 'skipIf', 'skipUnless', 'expectedFailure'])
/** Decorators the old line rule matched by bare name (`from unittest import skip`). */
export const BARE_DECORATORS = UNITTEST_MARKERS

export function isFramework(module: string): boolean {
  return (
    module === 'pytest' ||
    module.startsWith('pytest.') ||
    module === 'unittest' ||
    module.startsWith('unittest.')
  )
}

/** Names a file may use without importing them that the old line rules knew. */
export function globalValue(name: string): Value | undefined {
  if (name === 'pytest') return { kind: 'module', name: 'pytest' }
  if (name === 'unittest') return { kind: 'module', name: 'unittest' }
  if (name === 'mark') return { kind: 'module', name: 'mark' }
  return undefined
}

export function member(object: Value, prop: string): Value | undefined {
  switch (object.kind) {
    case 'module':
      if (object.name === 'pytest') {
        if (prop === 'mark') return { kind: 'module', name: 'mark' }
        return PYTEST_MARKERS.has(prop) ? { kind: 'marker', label: `pytest.${prop}(` } : undefined
      }
      if (object.name === 'mark')
        return MARK_MARKERS.has(prop) ? { kind: 'marker', label: `pytest.mark.${prop}` } : undefined
      if (prop === 'SkipTest') return { kind: 'marker', label: 'raise SkipTest' }
      return UNITTEST_MARKERS.has(prop) ? { kind: 'marker', label: `unittest.${prop}` } : undefined
    case 'marker':
      return object
    case 'helpers': {
      const marked = object.exports.get(prop)
      return marked
        ? { kind: 'marker', label: `${marked.label} (${prop} from ${object.module})` }
        : undefined
    }
    default:
      return undefined
  }
}

export function strongest(values: ReadonlyArray<Value | undefined>): Value | undefined {
  return values.find(v => v?.kind === 'marker') ?? values.find(v => v !== undefined)
}
