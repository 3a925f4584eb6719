// Names as dotted paths (`os.environ`, `process.env.VITEST`): the domain oracle-reach gives
// both resolvers, whose tables are written as such paths. What the Python and the JS/TS
// domains share; each adds how its language names modules and members. Pure.

/** A dotted path an expression stands for. */
export interface PathValue {
  kind: 'path'
  path: string
}

export function pathValue(path: string): PathValue {
  return { kind: 'path', path }
}

/** The path of a resolved value (a string or nothing has none). */
export function pathOf(value: { kind: string } | undefined): string | undefined {
  return value?.kind === 'path' ? (value as PathValue).path : undefined
}

/** Of several bindings of one name, the last that resolves (as a file read top-down sees it). */
export function lastDefined<T>(values: ReadonlyArray<T | undefined>): T | undefined {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== undefined) return values[i]
  return undefined
}
