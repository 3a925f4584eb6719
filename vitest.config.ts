import { defineConfig } from 'vitest/config'

/**
 * The fast tier, for the edit loop (`npm run test:unit`): pure functions, the fake GitHub
 * API with millisecond waits, small temporary repositories, no suite runs and no bundle.
 * Every other test file is end to end (real pytest/vitest/jest/node:test suites, the
 * bundled action and CLI, the demo), so a new file lands there unless it is listed here.
 */
const UNIT = [
  'action-docs',
  'action-log',
  'action-units',
  'append-only',
  'approval',
  'attestation',
  'card-glance',
  'config-drift',
  'differential-unit',
  'docs',
  'doctor-findings',
  'env',
  'evidence-unit',
  'fixture-manifest',
  'fixture-strength',
  'git-batch',
  'git-version',
  'github',
  'hostile-inputs',
  'init',
  'inspect',
  'instrument',
  'instrument-runner',
  'junit',
  'junit-hostile',
  'ledger',
  'ledger-cli',
  'ledger-from-card',
  'ledger-limits',
  'lints-extract',
  'lints-judge',
  'lints-overlap',
  'lints-overlap-regex',
  'lints-prefilter',
  'markdown',
  'markers',
  'markers-scan',
  'markers-tree',
  'mutants',
  'notices',
  'paths-hostile',
  'sandbox-unit',
  'policy',
  'policy-union',
  'process',
  'production-plane-unit',
  'pytest-config',
  'reach-events',
  'plugin-reasons',
  'reach-lint',
  'reach-patterns',
  'replay-transitions',
  'replay-worktree',
  'runner-loading',
  'runners',
  'sanitize',
  'stream',
  'scorecard-schema',
  'seeds',
  'shard-split',
  'simhash',
  'v8-coverage',
  'validators-generated',
  'verdict',
  'writeset',
  'zip'
].map(name => `__tests__/${name}.test.ts`)

export default defineConfig({
  test: {
    // End-to-end tests build git repos and run real pytest/vitest suites; on a
    // 2-core runner they need room, and running them in parallel only thrashes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          // One module graph per worker, not per file: the schema compilers, the wasm
          // parsers and src/ itself load twice instead of once per file (about a third of
          // the tier's CPU time). Sound while src keeps no module state and each unit file
          // restores what it changes (process.env, timers, spies) in its own hooks.
          isolate: false
        }
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['__tests__/**/*.test.ts'],
          exclude: UNIT,
          // Several e2e tests execute dist/index.js and dist/cli.js: bundled once, first.
          globalSetup: ['__tests__/global-setup.ts']
        }
      }
    ]
  }
})
