/**
 * `npm run bench`: figures, printed. Nothing here passes or fails on time; the targets are
 * printed beside the figures for a reader to compare. Runs the bundled action (dist/) as a
 * process against the emulators on loopback, on the Node that runs this script. What each
 * figure means, how the profile behind them was taken, and past numbers: bench/README.md.
 */
import { runFigures } from './agent-run.ts'
import { graphFigures } from './graph.ts'
import { hostileFigures } from './hostile.ts'

console.log(`hub-action benchmarks — Node ${process.version}, ${new Date().toISOString()}\n`)
const startUpRatio = await (await import('./yardstick/yardstick.ts')).yardstickFigures()
const run = await runFigures()
const live = await (await import('./live-steps.ts')).liveStepFigures()
await graphFigures()
await hostileFigures()
await (await import('./matrix-storm.ts')).matrixStormFigures()
await (await import('./hostile-manifests.ts')).hostileManifestFigures()
const { redactFigures } = await import('./hostile-redact.ts')
redactFigures()

console.log("\nthe run's last mile (issue 19), from the figures above:")
console.log(`  settle → exit, median                 ${run.settleToExitMs.toFixed(0)} ms  (target ≤ 50 ms)`)
console.log(`  first request vs @actions/core         ${startUpRatio.toFixed(2)}×  (target ≤ 1.3×)`)
console.log(`  dist/ size                             ${(run.distBytes / 1024 / 1024).toFixed(2)} MB  (target ≤ 2 MB)`)
console.log(
  `  requests of a 10-minute run            ${live.tenMinutes.on} with live steps, ${live.tenMinutes.off} with live-steps: false`,
)
await (await import('./rollout.ts')).rolloutFigures()
