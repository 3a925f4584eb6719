// Internal functions the benchmarks measure, bundled by bench/build.mjs into
// bench/.build/entries.mjs (the gate's bundles export nothing).
export { readReport } from '../src/replay/junit.js'
export { benchmarkLints } from './lints-bench.js'
export { FakeGitHub, runBundledAction } from '../__tests__/helpers/fake-github.js'
export { bwrapArgv, findProgram, planLayout } from '../src/exec/sandbox.js'
export { runShell } from '../src/exec/process.js'
export { hostNet } from '../src/replay/contain.js'
