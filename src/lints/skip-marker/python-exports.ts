// The modules a Python test imports, and the top-level names of a helper module that carry
// a marker: how a skipping helper defined in a production module is found where a test
// uses it (the resolver in helpers.ts reads the files). Pure.
import type { Tree } from 'web-tree-sitter'
import type { HelperExports } from './markers.js'
import { pythonMarkers } from './python.js'
import { importedModules, pyName } from '../resolve/python.js'
import { isFramework } from './python-values.js'

/** Modules a file imports (`pkg.mod`, `.helpers`, `..app.testing`): helper candidates. */
export function pythonImports(tree: Tree): string[] {
  // `from . import helpers`: the names may be submodules (the resolver lists them too).
  return importedModules(tree.rootNode).filter(m => !isFramework(m))
}

/** The top-level names of a production module whose value or body holds a marker. */
export function pythonMarkedExports(tree: Tree): HelperExports {
  const hits = pythonMarkers(tree, { production: true })
  const exports = new Map<string, { label: string; only: boolean }>()
  if (hits.size === 0) return exports
  for (const statement of tree.rootNode.namedChildren) {
    if (!statement) continue
    const definition =
      statement.type === 'decorated_definition'
        ? statement.childForFieldName('definition')
        : statement
    let names: string[] = []
    if (definition?.type === 'function_definition' || definition?.type === 'class_definition') {
      const name = definition.childForFieldName('name')
      if (name) names = [pyName(name)]
    } else if (statement.type === 'expression_statement') {
      const assignment = statement.namedChildren[0]
      const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null
      if (left?.type === 'identifier') names = [pyName(left)]
    }
    for (
      let line = statement.startPosition.row + 1;
      line <= statement.endPosition.row + 1;
      line++
    ) {
      const hit = hits.get(line)?.[0]
      if (!hit) continue
      for (const name of names) exports.set(name, { label: hit.label, only: false })
      break
    }
  }
  return exports
}
