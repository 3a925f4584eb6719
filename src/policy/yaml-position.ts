// Where in a YAML (or JSON) document a key path points, so that a validation message can
// name the line and column a user must fix. Shared by the policy and the flake ledger.
import { isMap, isPair, isScalar, isSeq, type Document } from 'yaml'

type Ranged = { range?: [number, number, number] } | null | undefined

/**
 * Follows `path` (map keys and sequence indexes) as far as the document has it. Returns the
 * deepest node reached and the offset to report: the start of that node's value when it
 * has one (a wrong value), else of its key (an empty value), else of the document.
 */
export function findNode(
  doc: Document,
  path: readonly string[]
): { node: unknown; offset: number } {
  let node: unknown = doc.contents
  let offset = (node as Ranged)?.range?.[0] ?? 0
  for (const segment of path) {
    let next: unknown
    if (isMap(node)) {
      const pair = node.items.find(
        item => isPair(item) && isScalar(item.key) && String(item.key.value) === segment
      )
      if (pair === undefined) break
      offset = (pair.value as Ranged)?.range?.[0] ?? (pair.key as Ranged)?.range?.[0] ?? offset
      next = pair.value
    } else if (isSeq(node)) {
      next = node.items[Number(segment)]
      const start = (next as Ranged)?.range?.[0]
      if (start === undefined) break
      offset = start
    } else {
      break
    }
    node = next
  }
  return { node, offset }
}

/** Offset of the key `name` in a mapping node, when the node is a mapping that has it. */
export function keyOffset(node: unknown, name: string): number | undefined {
  if (!isMap(node)) return undefined
  const pair = node.items.find(item => isScalar(item.key) && String(item.key.value) === name)
  return (pair?.key as Ranged)?.range?.[0]
}
