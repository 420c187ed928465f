/**
 * What a screenshot in docs/images/ was drawn from, as a sha256 per scenario: the page the
 * renderer builds for it (the markdown the action wrote, turned into HTML inside the page
 * template) and the scripts the page loads. `npm run screenshots` records them next to the
 * images in screenshots.json; `npm test` recomputes them without a browser, so a change to the
 * reports or to the page that would change a screenshot fails until the images are redrawn.
 * (Comparing pixels instead would fail on every font or Chromium update.)
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../e2e/action-process.ts'
import { pageAssets } from './render.ts'
import { pageOf, type Scenario } from './scenarios.ts'

export const IMAGES = join(ROOT, 'docs', 'images')
/** GitHub shows a taller picture in a README cropped, or so scaled down that it cannot be read. */
export const MAX_PICTURE_HEIGHT = 1_200
const FINGERPRINTS_FILE = join(IMAGES, 'screenshots.json')
const REDRAW = 'run `npm run screenshots` and commit docs/images'

export type Fingerprints = Record<string, string>

/** One sha256 per scenario name. */
export function fingerprints(scenarios: readonly Scenario[]): Fingerprints {
  const assets = createHash('sha256')
  for (const [path, file] of Object.entries(pageAssets()).sort(([a], [b]) => a.localeCompare(b)))
    assets.update(`${path}\0`).update(readFileSync(file))
  const assetsDigest = assets.digest('hex')
  const out: Fingerprints = {}
  for (const scenario of [...scenarios].sort((a, b) => a.name.localeCompare(b.name))) {
    const page = pageOf(scenario)
    out[scenario.name] = createHash('sha256').update(page).update('\0').update(assetsDigest).digest('hex')
  }
  return out
}

/** Width and height of a PNG, from its IHDR chunk (bytes 16–23, after the signature and the chunk's length and type). */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR')
    throw new Error('not a PNG: no IHDR chunk where the format puts it')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

export function readFingerprints(): Fingerprints | undefined {
  if (!existsSync(FINGERPRINTS_FILE)) return undefined
  const parsed = JSON.parse(readFileSync(FINGERPRINTS_FILE, 'utf8')) as { scenarios?: Fingerprints }
  return parsed.scenarios
}

export function writeFingerprints(current: Fingerprints): void {
  const file = {
    note: `sha256 of what each docs/images/<name>.png was drawn from; written by npm run screenshots`,
    scenarios: current,
  }
  writeFileSync(FINGERPRINTS_FILE, JSON.stringify(file, null, 2) + '\n')
}

/** Why the recorded images are not what today's renderers draw, as sentences (empty: fresh). */
export function staleness(recorded: Fingerprints | undefined, current: Fingerprints): string[] {
  if (!recorded) return [`docs/images/screenshots.json is missing: ${REDRAW}`]
  const problems: string[] = []
  for (const [name, digest] of Object.entries(current)) {
    if (recorded[name] === undefined)
      problems.push(`docs/images/${name}.png has no recorded fingerprint (a new scenario): ${REDRAW}`)
    else if (recorded[name] !== digest)
      problems.push(`docs/images/${name}.png is stale (its report or page changed): ${REDRAW}`)
    if (!existsSync(join(IMAGES, `${name}.png`))) problems.push(`docs/images/${name}.png is missing: ${REDRAW}`)
  }
  for (const name of Object.keys(recorded))
    if (current[name] === undefined)
      problems.push(`docs/images/screenshots.json names ${name}, which is no scenario any more: ${REDRAW}`)
  return problems
}
