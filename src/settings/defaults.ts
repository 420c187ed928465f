/**
 * Every input the action reads, from where each is declared: `command` (from the table), the
 * common inputs (./common.ts), and each row's `inputs` (its family's inputs file, which takes the
 * inputs families share from ./targets.ts, ./target-limits.ts and ./fields.ts). action.yml,
 * docs/reference.md and .env.example are written from the same (scripts/surface.ts).
 */
import { COMMON_INPUTS, commandInput } from './common.js'
import type { InputDeclaration, InputDeclarations } from './fields.js'

/** What the declarations need of the table: each row's summary and its inputs. */
type DeclaringTable = Readonly<Record<string, { summary: string; inputs: InputDeclarations }>>

/**
 * Input name → its declaration, in action.yml's order: `command`, the common inputs, then each
 * row's in the table's order (an input two rows read stays where the first put it). Two rows
 * that declare one input differently are a mistake: what it means is declared once, where the
 * families share it.
 */
export function declaredInputs(table: DeclaringTable): ReadonlyMap<string, InputDeclaration> {
  const inputs = new Map<string, InputDeclaration>([['command', commandInput(table)], ...Object.entries(COMMON_INPUTS)])
  const declaredBy = new Map<string, string>()
  for (const [command, row] of Object.entries(table))
    for (const [name, declaration] of Object.entries(row.inputs)) {
      const known = inputs.get(name)
      if (known === undefined) {
        inputs.set(name, declaration)
        declaredBy.set(name, command)
      } else if (!sameDeclaration(known, declaration))
        throw new Error(
          `input ${name} is declared differently by ${declaredBy.get(name) ?? 'the common inputs'} and ${command}: declare it once (src/settings/) and use that declaration in both`,
        )
    }
  return inputs
}

const sameDeclaration = (a: InputDeclaration, b: InputDeclaration) =>
  a.description === b.description && a.default === b.default && Boolean(a.required) === Boolean(b.required)

/** The value an input has when the runner passes none: its declared default, an expression (`${{ github.token }}`) being empty off a runner. */
function runtimeDefault(declaration: InputDeclaration): string {
  return /^\$\{\{.*\}\}$/.test(declaration.default) ? '' : declaration.default
}

/** Input name → the default applied when the runner did not (action.yml declares the same, being written from it). */
export function inputDefaults(table: DeclaringTable): Readonly<Record<string, string>> {
  return Object.fromEntries(
    [...declaredInputs(table)].map(([name, declaration]) => [name, runtimeDefault(declaration)]),
  )
}
