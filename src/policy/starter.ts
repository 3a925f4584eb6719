// The starter policy written by `oracle-gate init`. It must parse against the schema (a
// test checks that), and every key carries a comment saying what it does.

export function starterPolicy(_repoDir: string): string {
  return `# oracle-gate policy: who may write what, and which tests vote.
# The gate reads this file from the merge base; a PR cannot change how it is judged.
version: 1

# Paths a patch may not add, modify, delete or rename into/out of (the instrument).
# This file, the ledger, the fixture manifest and the seed corpus are always protected.
protected:
  - oracle/**
  - .github/workflows/**

planes:
  voting: [oracle/properties/**]   # the locked suite: only these tests vote
  drafts: [drafts/**]              # run as diagnostics, never vote
  in_diff: [tests/**]              # the patch may write these; they never vote

suite:
  # Run once on the merge base and once on the head, from the worktree root.
  command: python -m pytest oracle/properties -p no:cacheprovider --junitxml={junit}
  timeout: 600        # seconds per side; a timed-out side is a red vote
  reruns: 2           # reruns of a failing voting test, to tell flaky from failing

ledger: oracle/flake_ledger.yml          # dated, owned flake rows
# fixtures: oracle/fixtures/manifest.json  # {name: {file, sha256}}
campaign: {seed: 20260913, max_examples: 128, wall_clock: 90}
`
}
