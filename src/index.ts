import { setFlagsFromString } from 'node:v8'

// The bundle's code needs Node 24 (undici, and syntax of its own): under an older Node its first
// evaluation would dump a minified stack trace. This entry loads nothing else until the check has
// passed, so an older runtime gets one line that names what is needed.
const MIN_NODE_MAJOR = 24
const major = Number(process.versions.node.split('.')[0])
if (major < MIN_NODE_MAJOR) {
  process.stdout.write(
    `::error::hub-action needs Node ${MIN_NODE_MAJOR} or newer (this runner has Node ${process.versions.node}): use \`runs.using: node${MIN_NODE_MAJOR}\` (the action.yml of a released version does), on a runner that has it; locally, run this bundle on the project's own Node 24 with \`npx node dist/index.js\` from the project's folder (its node_modules/.bin/node), or the sources with \`npm run local\`.\n`,
  )
  process.exitCode = 1
} else {
  // eager: bundled into this file (one minified file, as before), evaluated only here
  void import(/* webpackMode: "eager" */ './main.js').then(({ run }) => {
    // undici parses HTTP with llhttp compiled to WebAssembly. Once its parse function has run a while,
    // V8 recompiles it with its optimising compiler on a worker thread: 90 to 330 ms of CPU and 22 MB
    // for one function, started by the answer that settles the run, and process exit waits for it;
    // it was most of the time between the verdict and exit (bench/README.md). A step reads a few
    // answers, for which the baseline code is fast enough: a budget this large keeps it there. Set
    // before the first connection compiles the parser.
    setFlagsFromString('--wasm-tiering-budget=2000000000')
    return run()
  })
}
