// What the two resolvers (python.ts, script.ts) share: names bound per scope and looked up
// from the innermost scope out, and one computed value per syntax node. Plain data
// structures over syntax nodes, one per parse tree and lint run; no I/O.
import type { Node } from 'web-tree-sitter'

/** Where each name is declared, by the scope node that holds the declaration. */
export class Bindings<S> {
  private readonly sites = new Map<string, Map<number, S[]>>()

  /** @param scopes node types that open a scope (the root's type among them) */
  constructor(private readonly scopes: ReadonlySet<string>) {}

  bind(name: string, scope: Node, site: S): void {
    let byScope = this.sites.get(name)
    if (byScope === undefined) this.sites.set(name, (byScope = new Map()))
    const list = byScope.get(scope.id)
    if (list) list.push(site)
    else byScope.set(scope.id, [site])
  }

  /** The declarations of `name` in the innermost scope around `from` that has any. */
  visible(name: string, from: Node): S[] | undefined {
    const byScope = this.sites.get(name)
    if (byScope === undefined) return undefined
    for (let n: Node | null = from; n !== null; n = n.parent) {
      const sites = this.scopes.has(n.type) ? byScope.get(n.id) : undefined
      if (sites !== undefined) return sites
    }
    return undefined
  }

  /** The nearest node around `node` that opens a scope (the root when none does). */
  scopeOf(node: Node): Node {
    let n = node
    while (n.parent !== null && !this.scopes.has(n.type)) n = n.parent
    return n
  }
}

/** One value per syntax node, computed once; a node met again while computing has none. */
export class NodeValues<V> {
  private readonly memo = new Map<number, V | undefined>()

  constructor(private readonly compute: (node: Node) => V | undefined) {}

  of(node: Node | null): V | undefined {
    if (node === null) return undefined
    if (this.memo.has(node.id)) return this.memo.get(node.id)
    this.memo.set(node.id, undefined)
    const value = this.compute(node)
    this.memo.set(node.id, value)
    return value
  }
}
