// The folder boundaries of src/, as an ESLint rule: which folder may import which. A file's
// folder is its unit (src/commands/<command> for a command, src/commands for the command table, src for
// the files at the top). Type-only imports count: a type names what a folder knows about.
import { dirname, relative, resolve } from 'node:path'

const STEPS =
  'commands never import each other: move what two commands share below the commands (src/sources/, src/model/, src/settings/)'
const BELOW_STEPS = 'only main.ts and the command table (src/commands/index.ts) load the commands'

/** Units each unit may not import, and why. A unit absent here may import any unit but a command. */
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

/**
 * src/commands/impact/x.ts → src/commands/impact; src/commands/index.ts (the table) → src/commands;
 * src/commands/command.ts (what a row declares, which every command uses) → its own unit;
 * src/hub/mcp/x.ts → src/hub.
 */
function unitOf(path) {
  const parts = path.split('/')
  if (parts[0] !== 'src') return undefined
  if (parts.length === 2) return 'src'
  if (parts[1] === 'commands' && parts.length === 3)
    return /^command\.[jt]s$/.test(parts[2]) ? 'src/commands/command' : 'src/commands'
  if (parts[1] === 'commands') return `src/commands/${parts[2]}`
  return `src/${parts[1]}`
}

const isCommand = (unit) => unit.startsWith('src/commands/') && unit !== 'src/commands/command'

function problem(from, to) {
  if (from === to) return undefined
  if (to === 'src/commands/command') return from.startsWith('src/commands') ? undefined : BELOW_STEPS
  if (isCommand(to) || to === 'src/commands') {
    if (isCommand(from)) return STEPS
    if (from === 'src/commands' || from === 'src') return undefined
    return BELOW_STEPS
  }
  const [units, why] = FORBIDDEN[from] ?? [[], '']
  return units.includes(to) ? why : undefined
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
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
        return
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
    }
  },
}

/** The flat-config block that applies the rule to the sources. */
export const boundariesConfig = {
  files: ['src/**/*.ts'],
  plugins: { house: { rules: { boundaries } } },
  rules: { 'house/boundaries': 'error' },
}
