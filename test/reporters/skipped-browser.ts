/**
 * Says at the very end of a test run, after vitest's summary, that the browser tests were skipped
 * and why: otherwise the reason is one stderr line among hundreds, and "all passed" reads as if
 * the reports had been rendered in Chromium. The reason is the skipped test's own name
 * (test/browser/screenshots.test.ts names it), so the check for a browser lives in one place.
 */
import type { Reporter, TestModule } from 'vitest/node'

const SKIPPED_PREFIX = 'browser test skipped'

export default class SkippedBrowserReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        if (test.name.startsWith(SKIPPED_PREFIX))
          process.stdout.write(
            `\n${test.name[0]!.toUpperCase()}${test.name.slice(1)}: the reports were not rendered in Chromium (set CHROMIUM_PATH to a Chromium binary to run them).\n`,
          )
      }
    }
  }
}
