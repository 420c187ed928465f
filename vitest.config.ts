import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e tests spawn dist/ as processes; two cores, so keep parallelism modest
    maxWorkers: 2,
    // the default output, then one closing line when the browser tests were skipped
    reporters: ['default', './test/reporters/skipped-browser.ts'],
  },
})
