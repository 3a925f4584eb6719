// The gate's node:test reporter: each test's outcome as node's own junit reporter records
// it (a test without subtests is a <testcase> named by its title, classname "test", inside
// one <testsuite> per enclosing test), sent to the gate's descriptor when the test ends.
// It yields nothing: its destination is stdout, which it leaves untouched. Unlike the junit
// reporter, it names each test's file (relative to the run's directory): two files may hold
// tests of the same title, and the vote must tell them apart.
import { isAbsolute, relative, sep } from 'node:path'
import { send } from './channel.mjs'

/** The test's file relative to the working directory, or nothing when it lies outside. */
function fileOf(data) {
  if (typeof data.file !== 'string' || !isAbsolute(data.file)) return {}
  const path = relative(process.cwd(), data.file)
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return {}
  return {
    file: path.split(sep).join('/'),
    ...(typeof data.line === 'number' ? { line: data.line } : {})
  }
}

export default async function* outcomeStream(source) {
  send('start', { runner: 'node-test' })
  let count = 0
  let current = null
  const start = data => {
    const node = { name: data.name, nesting: data.nesting, parent: current, children: 0 }
    if (current) current.children++
    current = node
  }
  for await (const event of source) {
    if (event.type === 'test:start') start(event.data)
    else if (event.type === 'test:pass' || event.type === 'test:fail') {
      const data = event.data
      if (!current) start({ name: 'root', nesting: 0 })
      if (current.name !== data.name || current.nesting !== data.nesting) start(data)
      const node = current
      if (current.nesting === data.nesting) current = current.parent
      if (node.children > 0) continue
      const suites = []
      for (let p = node.parent; p; p = p.parent) suites.unshift(p.name)
      const outcome =
        event.type === 'test:fail' ? 'failed' : data.skip || data.todo ? 'skipped' : 'passed'
      count++
      send('case', {
        classname: data.classname ?? 'test',
        name: data.name,
        suites,
        outcome,
        ...fileOf(data)
      })
    }
  }
  send('end', { count })
  yield* []
}
