/**
 * Says at the very end of a test run, after vitest's summary, that the browser tests were skipped
 * and why: otherwise the reason is one stderr line among hundreds, and "all passed" reads as if
 * the reports had been rendered in Chromium. The reason is the skipped test's own name
 * (test/browser/screenshots.test.ts names it), so the check for a browser lives in one place.
 * Its count is vitest's own way of counting (every skipped test, the one carrying the reason
 * included), so the line and the summary's "N skipped" just above it say the same number.
 */
import type { Reporter, TestModule } from 'vitest/node'

const SKIPPED_PREFIX = 'browser tests skipped'

export default class SkippedBrowserReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skippedIn = (module: TestModule) => [...module.children.allTests('skipped')]
    const total = testModules.reduce((sum, module) => sum + skippedIn(module).length, 0)
    for (const module of testModules) {
      const skipped = skippedIn(module)
      const reason = skipped.find((test) => test.name.startsWith(SKIPPED_PREFIX))?.name
      if (reason === undefined) continue
      const count = skipped.length
      const which = count === total ? `the ${count} skipped` : `${count} of the ${total} skipped`
      process.stdout.write(
        `\n${reason[0]!.toUpperCase()}${reason.slice(1)}. They are ${which} tests above (${module.relativeModuleId}).\n`,
      )
    }
  }
}
