import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts'],
    globalSetup: ['__tests__/global-setup.ts'],
    // End-to-end tests build git repos and run real pytest/vitest suites; on a
    // 2-core runner they need room, and running them in parallel only thrashes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2
  }
})
