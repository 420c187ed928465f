// The boundaries of the code, as an ESLint rule: which folder may import which, and which folder
// alone may import a package. A file's folder is its unit: src/commands/<family> for a command
// family (runs, impact, query, rollout, and dry-run beside them), src/commands for the command
// table, src for the files at the top; emulator/ (its entry, index.ts, apart) and test/, bench/,
// scripts/ beside src/. Type-only imports count: a type names what a folder knows about.
import { dirname, relative, resolve } from 'node:path'

const FAMILIES =
  'a command family never imports another: move what two families share below the commands (src/sources/, src/model/, src/settings/)'
const BELOW_STEPS = 'only main.ts and the command table (src/commands/index.ts) load the commands'
const SRC_ALONE =
  'src/ is the action and imports nothing beside it: the emulator, the tests, the benchmarks and the scripts depend on it, never the reverse'
const EMULATOR_ALONE =
  'the emulator stands alone (its own files and packages only): it models the hub and GitHub from docs/hub-facts.md, and borrowing the action’s code or a test’s would make it agree with the action by construction'
const EMULATOR_ENTRY =
  'test/, bench/ and scripts/ use the emulator through its entry (emulator/index.ts): export what you need there rather than reaching into its files'

/** Units each unit may not import, and why. A unit absent here may import any unit of src/ but a command. */
const FORBIDDEN = {
  'src/http': [
    ['src/hub', 'src/github', 'src/runner', 'src/settings', 'src/sources'],
    'the HTTP layer sits below both clients and knows neither',
  ],
  'src/github': [['src/hub'], 'GitHub and the hub share only the HTTP layer (src/http/)'],
  'src/hub': [['src/github', 'src/sources'], 'the hub clients know neither GitHub nor where targets come from'],
  'src/runner': [['src/sources', 'src/hub', 'src/github'], 'the runner side knows no step and no client'],
  'src/markdown': [['src/sources', 'src/hub', 'src/github', 'src/settings'], 'markdown renders what it is given'],
  'src/model': [['src/sources', 'src/hub', 'src/github', 'src/settings', 'src/runner'], 'the model is plain data'],
}

/** Packages one unit of src/ alone may import (a subpath counts as the package), and why. */
const PACKAGES = {
  '@actions/core': [
    'src/runner',
    'the runner side alone talks to @actions/core, so that nothing reaches the log, an output or the summary without redaction: use src/runner/workflow.ts',
  ],
  undici: [
    'src/http',
    'the HTTP layer alone loads undici: use what src/http/wire.ts exports (dispatchers, sending, the Dispatcher type)',
  ],
}

/**
 * src/commands/impact/x.ts → src/commands/impact; src/commands/index.ts (the table) → src/commands;
 * src/commands/command.ts (what a row declares, which every command uses) → its own unit;
 * src/hub/mcp/x.ts → src/hub; emulator/index.ts → emulator/index; emulator/graph/x.ts → emulator;
 * test/e2e/x.ts → test.
 */
function unitOf(path) {
  const parts = path.split('/')
  if (parts[0] === 'emulator')
    return parts.length === 2 && /^index\.[jt]s$/.test(parts[1]) ? 'emulator/index' : 'emulator'
  if (['test', 'bench', 'scripts'].includes(parts[0]) && parts.length > 1) return parts[0]
  if (parts[0] !== 'src') return undefined
  if (parts.length === 2) return 'src'
  if (parts[1] === 'commands' && parts.length === 3)
    return /^command\.[jt]s$/.test(parts[2]) ? 'src/commands/command' : 'src/commands'
  if (parts[1] === 'commands') return `src/commands/${parts[2]}`
  return `src/${parts[1]}`
}

const isCommand = (unit) => unit.startsWith('src/commands/') && unit !== 'src/commands/command'
const inSrc = (unit) => unit === 'src' || unit.startsWith('src/')
const inEmulator = (unit) => unit.startsWith('emulator')

function problem(from, to) {
  if (from === to) return undefined
  if (inSrc(from) && !inSrc(to)) return SRC_ALONE
  if (inEmulator(from)) return inEmulator(to) ? undefined : EMULATOR_ALONE
  if (to === 'emulator') return EMULATOR_ENTRY
  if (!inSrc(from)) return undefined
  if (to === 'src/commands/command') return from.startsWith('src/commands') ? undefined : BELOW_STEPS
  if (isCommand(to) || to === 'src/commands') {
    if (isCommand(from)) return FAMILIES
    if (from === 'src/commands' || from === 'src') return undefined
    return BELOW_STEPS
  }
  const [units, why] = FORBIDDEN[from] ?? [[], '']
  return units.includes(to) ? why : undefined
}

/** The package a bare specifier names: '@actions/core/lib/x' → '@actions/core', 'undici' → 'undici'. */
function packageOf(specifier) {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function packageProblem(from, specifier) {
  const entry = PACKAGES[packageOf(specifier)]
  if (!entry || !inSrc(from)) return undefined
  const [owner, why] = entry
  return from === owner ? undefined : why
}

const boundaries = {
  meta: { type: 'problem', schema: [], messages: { crossed: '{{from}} may not import {{to}}: {{why}}.' } },
  create(context) {
    const root = context.cwd
    const file = relative(root, context.filename).split('\\').join('/')
    const from = unitOf(file)
    if (!from) return {}
    const check = (node) => {
      const source = node.source
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return
      if (!source.value.startsWith('.')) {
        if (source.value.startsWith('node:')) return
        const why = packageProblem(from, source.value)
        if (why)
          context.report({ node: source, messageId: 'crossed', data: { from, to: packageOf(source.value), why } })
        return
      }
      const target = relative(root, resolve(dirname(context.filename), source.value))
        .split('\\')
        .join('/')
      const to = unitOf(target)
      const why = to && problem(from, to)
      if (why) context.report({ node: source, messageId: 'crossed', data: { from, to, why } })
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
    }
  },
}

/** The flat-config block that applies the rule to the sources, the emulator and what uses them. */
export const boundariesConfig = {
  files: ['src/**/*.ts', 'emulator/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
  plugins: { house: { rules: { boundaries } } },
  rules: { 'house/boundaries': 'error' },
}
