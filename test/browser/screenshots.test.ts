/**
 * The job summaries and the pull-request comment of the demo scenarios, rendered as GitHub
 * renders them (GFM, GitHub's stylesheet and sanitizer, alerts, Mermaid) in headless Chromium
 * from Debian's packages, driven by playwright-core. Fails on a Mermaid parse error, a broken
 * table or markdown that shows as text. The screenshots stay in memory; only `npm run
 * screenshots` (SCREENSHOTS=write) writes the ones the README shows (docs/images/*.png) and
 * their fingerprints (fingerprint.ts). A test here that needs no browser fails when the
 * recorded fingerprints are not what today's renderers produce.
 *
 * Skipped, saying so, where Chromium is not installed (`apt-get install chromium`, or point
 * CHROMIUM_PATH at a Chromium binary). `.ci/run` installs it, so CI always runs this test.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'
import {
  fingerprints,
  IMAGES,
  MAX_PICTURE_HEIGHT,
  pngSize,
  readFingerprints,
  staleness,
  writeFingerprints,
} from './fingerprint.ts'
import {
  findBrokenTables,
  renderGitHubMarkdown,
  startAssetServer,
  type AssetServer,
  type RenderOptions,
} from './render.ts'
import { pageOf, produceScenarios, type Scenario } from './scenarios.ts'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const HAVE_CHROMIUM = existsSync(CHROMIUM)
/** `npm run screenshots`: draw docs/images/*.png and record what they were drawn from. */
const WRITE = process.env.SCREENSHOTS === 'write'
const SCREENSHOTS = [
  'run-succeeded',
  'run-failed',
  'impact-comment',
  'impact-rendered-chart',
  'rollout-summary',
  'rollout-deployments',
]
/** Where screenshots of pages that failed their checks go (never over the README's images). */
const FAILED_IMAGES = join(tmpdir(), 'hub-action-screenshots')
/** The width of a pull request's conversation column; the page is as tall as its content (the viewport starts short). */
const WIDTH = 900

/** The reason, and the fix, that the run's last line gives (test/reporters/skipped-browser.ts prints this test's name). */
const SKIPPED = `browser tests skipped: ${process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${CHROMIUM} does not exist` : `no Chromium at ${CHROMIUM}`}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH to a Chromium binary`
if (!HAVE_CHROMIUM) console.warn(SKIPPED)

interface PageReport {
  removed: string[]
  mermaid: { blocks: number; errors: string[] }
}

interface Inspection {
  tables: Array<{
    above: string
    bodyRows: number
    header: string[]
    cellsPerRow: number[]
    emptyHeaders: number
    uniformColumns: Array<{ header: string; value: string }>
  }>
  leaks: string[]
  details: number
  detailsWithoutSummary: number
  diagrams: Array<{
    nodes: number
    edges: number
    dottedEdges: number
    labels: string[]
    width: number
    height: number
  }>
  alerts: string[]
  /** Words in table cells and diagram labels split over two lines. */
  brokenWords: string[]
  /** What the page shows as GitHub first shows it: folded `<details>` stay folded. */
  text: string
  /** What it shows once every `<details>` is opened. */
  unfoldedText: string
}

interface Rendered {
  report: PageReport
  inspection: Inspection
  /** Requests the page tried to send anywhere but the local asset server (all blocked). */
  blocked: string[]
  /** Script errors and console errors in the page. */
  errors: string[]
  screenshot: Buffer
}

/** The scenarios run the action four times: once per file, shared by both describes. */
let produced: Promise<Scenario[]> | undefined
const scenariosOnce = (): Promise<Scenario[]> => (produced ??= produceScenarios())

describe("docs/images are what today's renderers draw (no browser needed)", () => {
  it.skipIf(WRITE)(
    'every screenshot was drawn from the page the renderers build today',
    async () => {
      const current = fingerprints(await scenariosOnce())
      expect(Object.keys(current).sort()).toEqual([...SCREENSHOTS].sort())
      expect(staleness(readFingerprints(), current)).toEqual([])
    },
    60_000,
  )

  it(`every picture in docs/images is at most ${MAX_PICTURE_HEIGHT.toLocaleString('en-US')} px tall, so the README shows it whole`, () => {
    const pictures = readdirSync(IMAGES).filter((file) => file.endsWith('.png'))
    expect(pictures.length).toBeGreaterThan(0)
    const tall = pictures
      .map((file) => ({ file, ...pngSize(readFileSync(join(IMAGES, file))) }))
      .filter((picture) => picture.height > MAX_PICTURE_HEIGHT)
      .map((picture) => `${picture.file}: ${picture.height} px`)
    expect(tall).toEqual([])
  })
})

describe.skipIf(!HAVE_CHROMIUM)('rendered as GitHub renders it (Chromium)', () => {
  let browser: Browser
  let context: BrowserContext
  let server: AssetServer
  let scenarios: Scenario[]
  /** Screenshots written to docs/images in this run (SCREENSHOTS=write only). */
  const drawn = new Set<string>()

  beforeAll(async () => {
    ;[scenarios, server, browser] = await Promise.all([
      scenariosOnce(),
      startAssetServer(),
      chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      }),
    ])
    context = await browser.newContext({
      viewport: { width: WIDTH, height: 200 },
      deviceScaleFactor: 1,
      colorScheme: 'light',
      locale: 'en-US',
      timezoneId: 'UTC',
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    // Fingerprints only for a complete, clean set: a partial redraw stays stale and fails.
    if (WRITE && drawn.size === SCREENSHOTS.length) writeFingerprints(fingerprints(scenarios))
  })

  async function render(
    name: string,
    markdown: string,
    options: RenderOptions,
    html = renderGitHubMarkdown(markdown, options),
  ): Promise<Rendered> {
    const page = await context.newPage()
    const blocked: string[] = []
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console error: ${message.text()}`)
    })
    // Nothing leaves the machine: only the asset server answers.
    await page.route('**/*', (route) => {
      const url = route.request().url()
      if (url.startsWith(`${server.url}/`)) return route.continue()
      blocked.push(url)
      return route.abort('blockedbyclient')
    })
    try {
      await page.goto(server.addPage(name, html), { waitUntil: 'load' })
      const report = await withTimeout(
        page.evaluate<PageReport>('window.githubMarkdown.ready'),
        20_000,
        `${name}: the page did not finish rendering`,
      )
      const inspection = await page.evaluate<Inspection>('window.githubMarkdown.inspect()')
      const screenshot = await page.screenshot({ fullPage: true, animations: 'disabled', type: 'png' })
      return { report, inspection, blocked, errors, screenshot }
    } finally {
      await page.close()
    }
  }

  /** Everything that makes a rendering wrong, as sentences (empty: all good). */
  function problemsOf(markdown: string, rendered: Rendered): string[] {
    const { report, inspection } = rendered
    const problems: string[] = []
    for (const error of report.mermaid.errors) problems.push(`Mermaid: ${error}`)
    for (const table of findBrokenTables(markdown)) problems.push(`broken table in the markdown: ${table}`)
    for (const [index, table] of inspection.tables.entries()) {
      const columns = table.header.length
      const bad = table.cellsPerRow.filter((cells) => cells !== columns)
      if (bad.length > 0)
        problems.push(
          `table ${index + 1} (${table.header.join(' | ')}): rows with ${bad.join(', ')} cells, the header has ${columns}`,
        )
      if (table.emptyHeaders > 0)
        problems.push(`table ${index + 1} (${table.header.join(' | ')}): ${table.emptyHeaders} empty header cells`)
      // "… (6)" just above a table announces its rows.
      const announced = /\((\d+)\)$/.exec(table.above)?.[1]
      if (announced !== undefined && Number(announced) !== table.bodyRows)
        problems.push(`table ${index + 1} under "${table.above}" has ${table.bodyRows} rows`)
      // A table per edge that spells its edge out on every row says nothing the reader needs.
      for (const column of table.uniformColumns.filter((each) => each.header === 'Edge'))
        problems.push(
          `table ${index + 1} under "${table.above}": an Edge column that repeats ${column.value} on every row`,
        )
    }
    for (const leak of inspection.leaks) problems.push(leak)
    // At this width (a pull request's conversation column) every name the reports show fits on its line.
    for (const word of inspection.brokenWords) problems.push(`a word broken over two lines in a ${word}`)
    if (inspection.detailsWithoutSummary > 0)
      problems.push(`${inspection.detailsWithoutSummary} <details> without a <summary>`)
    for (const [index, diagram] of inspection.diagrams.entries()) {
      if (diagram.nodes < 2 || diagram.edges < 1)
        problems.push(`diagram ${index + 1}: ${diagram.nodes} nodes and ${diagram.edges} edges drawn`)
      if (diagram.width < 50 || diagram.height < 50)
        problems.push(`diagram ${index + 1} is ${diagram.width}×${diagram.height} px`)
    }
    const scriptRemoved = report.removed.filter((item) => /script|\[on/i.test(item))
    if (scriptRemoved.length > 0)
      problems.push(`the sanitizer removed ${scriptRemoved.join(', ')}: the markdown carries active content`)
    for (const error of rendered.errors) problems.push(error)
    for (const url of rendered.blocked) problems.push(`the page tried to load ${url}`)
    return problems
  }

  /** A failed page's screenshot goes to a temporary folder; a good one to docs/images only under `npm run screenshots`. */
  function keep(name: string, screenshot: Buffer, good: boolean): string {
    if (good && !WRITE) return 'kept in memory'
    const folder = good ? IMAGES : FAILED_IMAGES
    mkdirSync(folder, { recursive: true })
    const path = join(folder, `${name}.png`)
    writeFileSync(path, screenshot)
    if (good) drawn.add(name)
    return path
  }

  for (const name of SCREENSHOTS) {
    it(`${name}: renders cleanly and shows what it must${WRITE ? `; drawn to docs/images/${name}.png` : ''}`, async () => {
      const scenario = scenarios.find((s) => s.name === name)
      if (!scenario) throw new Error(`no scenario ${name}`)
      const rendered = await render(name, scenario.markdown, scenario.render, pageOf(scenario))
      const problems = problemsOf(scenario.markdown, rendered)
      const { text, unfoldedText } = rendered.inspection
      const shows = (text: string, wanted: string | RegExp) =>
        typeof wanted === 'string' ? text.includes(wanted) : wanted.test(text)
      for (const wanted of scenario.expectText)
        if (!shows(unfoldedText, wanted)) problems.push(`the page does not show ${String(wanted)}, even unfolded`)
      for (const unwanted of scenario.rejectText)
        if (shows(unfoldedText, unwanted)) problems.push(`the page shows ${String(unwanted)}`)
      for (const wanted of scenario.expectVisible)
        if (!shows(text, wanted)) problems.push(`the page does not show ${String(wanted)} before a click`)
      for (const folded of scenario.expectFolded)
        if (shows(text, folded)) problems.push(`the page shows ${String(folded)} unfolded; GitHub folds it`)
      if (rendered.report.mermaid.blocks !== scenario.diagrams)
        problems.push(`${rendered.report.mermaid.blocks} Mermaid blocks, expected ${scenario.diagrams}`)
      if (rendered.inspection.diagrams.length !== scenario.diagrams)
        problems.push(`${rendered.inspection.diagrams.length} diagrams drawn, expected ${scenario.diagrams}`)

      const path = keep(name, rendered.screenshot, problems.length === 0)
      expect(problems, `${name} (screenshot: ${path}); its markdown:\n${scenario.markdown}`).toEqual([])
      const size = pngSize(rendered.screenshot)
      expect(size.width, 'screenshot width').toBe(WIDTH)
      expect(
        size.height,
        `${name}: screenshot height (the README shows at most ${MAX_PICTURE_HEIGHT} px whole)`,
      ).toBeLessThanOrEqual(MAX_PICTURE_HEIGHT)
    }, 30_000)
  }

  it('the impact report draws its graph: the target and what it depends on', async () => {
    const scenario = scenarios.find((s) => s.name === 'impact-comment')
    if (!scenario) throw new Error('no impact-comment scenario')
    const rendered = await render('impact-graph', scenario.markdown, scenario.render)
    const labels = rendered.inspection.diagrams.flatMap((diagram) => diagram.labels).join('\n')
    expect(labels).toMatch(/Deployment\s*shop\/checkout/)
    expect(labels).toMatch(/ConfigMap\s*shop\/checkout-config/)
    // prod-eu: six upstream arrows and "+5 more"; six downstream and "+2 more", its three Pods on
    // dotted arrows (owned through its ReplicaSet); the Deployment on prod-us on a dotted line.
    const first = rendered.inspection.diagrams[0]
    expect({ edges: first?.edges, dotted: first?.dottedEdges }).toEqual({ edges: 15, dotted: 4 })
    expect(rendered.inspection.alerts).toEqual(['markdown-alert-note'])
  }, 30_000)

  it('fails on a Mermaid parse error, a broken table, and markdown that shows as text', async () => {
    const broken = [
      '## Broken on purpose',
      '',
      '```mermaid',
      'flowchart LR',
      '  a["unclosed] --> b',
      '```',
      '',
      '| a | b |',
      '| --- | --- |',
      '| `x | y` | z |',
      '| only one |',
      '',
      'Some text',
      '| x | y |',
      '| --- |',
      '',
      '<details><summary>ok</summary>',
      '<script>window.bad = 1</script><img src=x onerror="window.bad = 2">',
      '</details>',
    ].join('\n')
    const rendered = await render('broken-on-purpose', broken, { context: 'document' })
    const problems = problemsOf(broken, rendered).join('\n')
    expect(problems).toMatch(/Mermaid: diagram 1/)
    expect(problems).toMatch(/broken table in the markdown: 3 cells where the header has 2: \| `x \| y` \| z \|/)
    expect(problems).toMatch(/broken table in the markdown: 1 cells where the header has 2: \| only one \|/)
    expect(problems).toMatch(/table row shown as text: \| x \| y \|/)
    expect(problems).toMatch(/the sanitizer removed .*<script>/)
    expect(problems).toMatch(/img\[onerror\]/)
  }, 30_000)
})

if (!HAVE_CHROMIUM && (process.env.REQUIRE_BROWSER || WRITE)) {
  // CI installs Chromium and sets REQUIRE_BROWSER, and screenshots need one: there a missing browser is a failure, not a skip.
  it('Chromium is installed (REQUIRE_BROWSER is set)', () => {
    expect.fail(SKIPPED)
  })
} else if (!HAVE_CHROMIUM) it.skip(SKIPPED, () => {})

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
  ]).finally(() => clearTimeout(timer))
}
