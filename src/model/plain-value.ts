/**
 * What YAML or JSON text became: a map is told from a list once, here, and a value is checked
 * before anything walks it. A YAML alias may name an anchor around itself (`a: &x {b: *x}`):
 * the parser then returns a value that contains itself, which every later walk (a schema, a
 * fingerprint, JSON) would follow until the stack overflows. The structured inputs
 * (settings/structured.ts) and the manifests a pull request holds (sources/manifests.ts)
 * both ask here.
 */

/** A map (an object that is not a list), as YAML and JSON give them. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Why `value` cannot be walked (it contains itself, or nests deeper than `maxDepth`), or undefined. */
export function unwalkable(value: unknown, maxDepth = Infinity): string | undefined {
  return walk(value, new Set(), 0, maxDepth)
}

function walk(value: unknown, around: Set<object>, depth: number, maxDepth: number): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if (around.has(value))
    return 'an alias (*name) stands inside the anchor (&name) it names, so the value would contain itself; write that part out'
  if (depth >= maxDepth) return `it nests deeper than ${maxDepth} levels`
  around.add(value)
  for (const child of Object.values(value)) {
    const problem = walk(child, around, depth + 1, maxDepth)
    if (problem) return problem
  }
  around.delete(value)
  return undefined
}

/**
 * A boolean read from a graph projection: on the graph's SQLite store a boolean leaf of a sparse
 * projection comes back as 1 or 0 (docs/hub-facts.md, "Store drivers"), on Postgres as itself.
 * Undefined for anything else (absent, null, another value).
 */
export function asBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 1) return true
  if (value === false || value === 0) return false
  return undefined
}
