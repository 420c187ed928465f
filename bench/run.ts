/**
 * `npm run bench`: figures, printed. Nothing here passes or fails on time; the targets are
 * printed beside the figures for a reader to compare. Runs the bundled action (dist/) as a
 * process against the emulators on loopback, on the Node that runs this script.
 */
import { runFigures } from './agent-run.ts'
import { graphFigures } from './graph.ts'
import { hostileFigures } from './hostile.ts'

console.log(`hub-action benchmarks — Node ${process.version}, ${new Date().toISOString()}\n`)
await (await import('./yardstick/yardstick.ts')).yardstickFigures()
await runFigures()
await (await import('./live-steps.ts')).liveStepFigures()
await graphFigures()
await hostileFigures()
await (await import('./matrix-storm.ts')).matrixStormFigures()
await (await import('./hostile-manifests.ts')).hostileManifestFigures()
await (await import('./rollout.ts')).rolloutFigures()
