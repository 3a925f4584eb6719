// Where a symlink points, inside the repository. A link is judged by what it reaches, not
// by its own name: `src/data -> ../oracle/fixtures` writes nothing under oracle/, yet the
// head's tests read the oracle through it (or, written the other way, a test reads a
// file the patch controls). Resolution is lexical over the head tree, following symlinks
// that the head tree itself contains, so `a -> lib/x` with `lib -> oracle` is caught too.

const MAX_HOPS = 40

/**
 * The repository path a symlink at `linkPath` with `target` resolves to, following the
 * links in `links` (path → target at head). null when it leaves the repository (absolute
 * target, ".." above the root) or loops: the gate cannot tell what such a link reads.
 * "" is the repository root.
 */
export function resolveSymlink(
  linkPath: string,
  target: string,
  links: ReadonlyMap<string, string> = new Map()
): string | null {
  if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target)) return null
  const dir = linkPath.split('/').slice(0, -1)
  let pending = [...dir, ...target.replace(/\\/g, '/').split('/')]
  const resolved: string[] = []
  let hops = 0
  while (pending.length > 0) {
    const part = pending.shift() as string
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (resolved.length === 0) return null
      resolved.pop()
      continue
    }
    resolved.push(part)
    const next = links.get(resolved.join('/'))
    if (next !== undefined) {
      if (++hops > MAX_HOPS || next.startsWith('/')) return null
      resolved.pop()
      pending = [...next.split('/'), ...pending]
    }
  }
  return resolved.join('/')
}
