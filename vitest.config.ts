import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'emulator/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e tests spawn dist/ as processes; two cores, so keep parallelism modest
    maxWorkers: 2,
    // Chosen, not the default left alone: each file gets a fresh worker, because tests register
    // secrets in the redactor's module-level list and start emulators, and one file's state must
    // not reach the next. Saying so also quiets vitest's closing hint.
    isolate: true,
    // the default output, then one closing line when the browser tests were skipped
    reporters: ['default', './test/reporters/skipped-browser.ts'],
  },
})
