import { setFlagsFromString } from 'node:v8'
import { run } from './main.js'

// undici parses HTTP with llhttp compiled to WebAssembly. Once its parse function has run a while,
// V8 recompiles it with its optimising compiler on a worker thread: 90 to 330 ms of CPU and 22 MB
// for one function, started by the answer that settles the run, and process exit waits for it;
// it was most of the time between the verdict and exit (bench/README.md). A step reads a few
// answers, for which the baseline code is fast enough: a budget this large keeps it there. Set
// before the first connection compiles the parser.
setFlagsFromString('--wasm-tiering-budget=2000000000')
void run()
