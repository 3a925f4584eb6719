// A YAML document's value with the resource limits hostile text needs: an alias bomb
// (anchors expanded into each other, billions of nodes from a few lines) stops at a fixed
// alias count, and that or any other failure of the conversion comes back as a message with
// the line it points at, so that the policy and the ledger can name file and line instead
// of ending as an internal error. Shared by the policy and the flake ledger.
import { visit, type Document, type LineCounter } from 'yaml'

/** Aliases resolved per document; real policies and ledgers use a handful, if any. */
export const MAX_ALIAS_COUNT = 100

export type DocumentValue =
  { ok: true; value: unknown } | { ok: false; line: number; message: string }

export function documentValue(doc: Document, lines: LineCounter): DocumentValue {
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const bomb = /excessive alias count/i.test(message)
    return {
      ok: false,
      line: lines.linePos(/alias/i.test(message) ? firstAliasOffset(doc) : 0).line,
      message: bomb
        ? `too many aliases (more than ${MAX_ALIAS_COUNT} resolved; an alias bomb?): ${message}`
        : `cannot read the YAML: ${message}`
    }
  }
}

function firstAliasOffset(doc: Document): number {
  let offset = 0
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0
      return visit.BREAK
    }
  })
  return offset
}
