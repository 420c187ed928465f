/**
 * Says at the very end of a test run, after vitest's summary, that the browser tests were skipped
 * and why: otherwise the reason is one stderr line among hundreds, and "all passed" reads as if
 * the reports had been rendered in Chromium. The reason is the skipped test's own name
 * (test/browser/screenshots.test.ts names it), so the check for a browser lives in one place.
 */
import type { Reporter, TestModule } from 'vitest/node'

const SKIPPED_PREFIX = 'browser tests skipped'

export default class SkippedBrowserReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    for (const module of testModules) {
      const skipped = [...module.children.allTests('skipped')]
      const reason = skipped.find((test) => test.name.startsWith(SKIPPED_PREFIX))?.name
      if (reason === undefined) continue
      // the other skipped tests of that file are the ones that needed the browser
      const count = skipped.length - 1
      process.stdout.write(
        `\n${reason[0]!.toUpperCase()}${reason.slice(1)}. ${count} ${count === 1 ? 'test' : 'tests'} that render the reports in Chromium as GitHub does did not run.\n`,
      )
    }
  }
}
