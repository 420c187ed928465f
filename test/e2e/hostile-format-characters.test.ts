/**
 * End to end, invisible format characters from the hub, an agent and a pull request: direction
 * controls (which make a reader see text in another order than it is: the approval summary is the
 * reviewer's only view of a tool's arguments), zero-width characters, a word joiner, a byte-order
 * mark, a soft hyphen and a tag character (which carries text nobody sees). dist/index.js runs as
 * a process against the hub and GitHub emulators. Each place a reader sees is judged as they get
 * it: the log as the runner shows it (its parser, ported), the job summary and the pull-request
 * comment raw and as cmark-gfm renders them. None of the planted characters is there raw; each is
 * shown as `<U+XXXX>`. A joiner inside an emoji sequence or a Persian word is left as it is.
 * Invisible characters outside Cf too (issue 34 item 5): variation selectors VS1–VS256 (one
 * after an emoji or an ideograph stays), Hangul fillers, the braille blank and their like.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BASE_SHA,
  HEAD_SHA,
  makeWorkspace,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  REPO,
  runStep,
  type ActionRun,
} from './harness.ts'
import {
  ACTIONS_TOKEN,
  startGitHubEmulator,
  type GitHubEmulator,
  createDemoFleet,
  startHubEmulator,
  type HubEmulator,
} from '../../emulator/index.ts'
import { CMARK_GFM, renderGfm } from '../oracles/gfm.ts'
import { readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

/** Each planted character, with what it does to a reader. */
const PLANTED: Record<string, string> = {
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE: the rest of the line reads backwards',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
  '\u200f': 'RIGHT-TO-LEFT MARK',
  '\u061c': 'ARABIC LETTER MARK',
  '\u200b': 'ZERO WIDTH SPACE',
  '\u200d': 'ZERO WIDTH JOINER between ASCII letters',
  '\u2060': 'WORD JOINER',
  '\ufeff': 'ZERO WIDTH NO-BREAK SPACE',
  '\u00ad': 'SOFT HYPHEN',
  '\u{e0041}': 'TAG LATIN CAPITAL LETTER A',
  // Not Cf, and as invisible (issue 34 item 5): a sentence was hidden in variation selectors.
  '\u{e0100}': 'VARIATION SELECTOR-17 (VS17–VS256 can carry a byte each)',
  '\u{e01ef}': 'VARIATION SELECTOR-256',
  '\ufe00': 'VARIATION SELECTOR-1 after a digit',
  '\u3164': 'HANGUL FILLER',
  '\u115f': 'HANGUL CHOSEONG FILLER',
  '\u1160': 'HANGUL JUNGSEONG FILLER',
  '\uffa0': 'HALFWIDTH HANGUL FILLER',
  '\u2800': 'BRAILLE PATTERN BLANK',
  '\u17b4': 'KHMER VOWEL INHERENT AQ',
  '\u034f': 'COMBINING GRAPHEME JOINER',
}
const CODES = Object.keys(PLANTED).map(
  (char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
)

/** Text that looks like `prod` but reads otherwise, each planted character once, between ASCII letters. */
const HOSTILE = Object.keys(PLANTED)
  .map((char, index) => `n${index}${char}x`)
  .join(' ')
/**
 * What scripts and emoji need: a family and a technologist (ZWJ sequences), a Persian word (ZWNJ),
 * a heart and a keycap in emoji presentation (VS16), an ideograph in its variant form (VS17, an IVS).
 */
const LEGITIMATE = ['👩‍👩‍👧', '👩🏽‍💻', 'می‌خواهم', '❤\ufe0f', '1\ufe0f\u20e3', '葛\u{e0100}']

/** The planted characters a reader meets raw in `text`, as code points (the legitimate joiners excepted). */
function rawPlanted(text: string): string[] {
  let rest = text
  for (const word of LEGITIMATE) rest = rest.split(word).join('')
  // Our own zero-width space after `@`, inside `::` and after `##` stops a mention or a command.
  rest = rest.replace(/@\u200b|:\u200b:|##\u200b\[/g, '')
  return [...rest]
    .filter((char) => char in PLANTED)
    .map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}`)
}

function places(result: ActionRun, extra: Record<string, string> = {}): Record<string, string> {
  const markdown = { 'job summary': result.summary, ...extra }
  return {
    log: shownLog(readWorkflowCommands(result.stdout)),
    ...markdown,
    ...(CMARK_GFM
      ? Object.fromEntries(Object.entries(markdown).map(([place, text]) => [`${place} rendered`, renderGfm(text)]))
      : {}),
  }
}

function expectShownNotRaw(found: Record<string, string>, shownIn: readonly string[]): void {
  expect(Object.entries(found).flatMap(([place, text]) => rawPlanted(text).map((code) => `${place}: ${code}`))).toEqual(
    [],
  )
  for (const place of shownIn) {
    const text = (found[place] ?? '')
      .replace(/\\\+/g, '+')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/‹/g, '<')
      .replace(/›/g, '>')
    expect(CODES.filter((code) => !text.includes(`<${code}>`)).map((code) => `${place}: ${code} not shown`)).toEqual([])
  }
}

describe('invisible format characters in a run: answer, tool names, arguments, results, errors, the hub message and the approval', () => {
  let hub: HubEmulator
  beforeAll(async () => {
    hub = await startHubEmulator({ maxHoldMs: 300 })
  })
  afterAll(async () => {
    await hub.close()
  })
  const act = (agent: string, inputs: Record<string, string> = {}) =>
    runStep({
      inputs: {
        'hub-url': hub.url,
        token: hub.token,
        org: hub.org,
        workspace: hub.workspace,
        agent,
        task: 'check',
        ...inputs,
      },
    })

  it('are shown as <U+XXXX> in the log, the summary and its rendering, never raw; emoji and Persian joiners stay', async () => {
    hub.setAgent('bidi', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: `# Report ${HOSTILE}\n\n${HOSTILE}\n\n\`${HOSTILE}\`\n\n| a | b |\n| - | - |\n| ${HOSTILE} | x |\n\n\`\`\`\n${HOSTILE}\n\`\`\`\n\n${LEGITIMATE.join(' ')}`,
      toolSteps: [
        {
          tool: `get_${HOSTILE}`,
          outcome: 'ok',
          args: { namespace: HOSTILE },
          result: JSON.stringify({ said: HOSTILE }),
        },
        { tool: 'fetch', outcome: 'error', error: HOSTILE },
      ],
    })
    const answer = await act('bidi')
    expect(answer.code).toBe(0)
    expect(answer.summary).toContain('### Output')
    for (const word of LEGITIMATE) expect(answer.summary).toContain(word)
    expectShownNotRaw(places(answer), ['log', 'job summary', ...(CMARK_GFM ? ['job summary rendered'] : [])])

    hub.setAgent('bidi-failing', { steps: [{ phase: 'Failed', afterMs: 0 }], message: `model call failed: ${HOSTILE}` })
    const failed = await act('bidi-failing')
    expect(failed.code).toBe(1)
    expectShownNotRaw(places(failed), ['log', 'job summary'])
  })

  it("in an approval's tool and arguments (the reviewer's only view of the call): shown, never raw", async () => {
    hub.setAgent('bidi-gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      // Shown raw, "delete namespace \u202Eprod-eu\u202C" would read as the reviewer expects it not to.
      approval: {
        tool: `kubectl_${HOSTILE}`,
        args: { command: `delete namespace \u202eue-dorp\u202c`, note: HOSTILE },
      },
    })
    const gate = await act('bidi-gated', { 'on-approval': 'succeed' })
    expect(gate.code).toBe(0)
    expect(gate.summary).toContain('### Waiting for approval')
    expect(gate.summary).toContain('<U+202E>ue-dorp<U+202C>')
    expectShownNotRaw(places(gate), ['log', 'job summary', ...(CMARK_GFM ? ['job summary rendered'] : [])])
    // Outputs stay raw text for scripts: `approval-args` is what the agent asked for.
    expect(gate.outputs['approval-args']).toContain('\u202eue-dorp')
  })
})

describe('impact: object names with invisible format characters, in the pull-request comment', () => {
  let hub: HubEmulator
  let github: GitHubEmulator
  let workspace: { dir: string; cleanup: () => void }

  beforeAll(async () => {
    // Checkout Pods on prod-eu renamed to carry the characters: downstream of the target, in the comment's table and graph.
    const fleet = createDemoFleet()
    const pods = fleet.objects.filter(
      (o) =>
        o.kind === 'Pod' &&
        o.edge === 'prod-eu' &&
        o.metadata.namespace === 'shop' &&
        o.metadata.name.startsWith('checkout-'),
    )
    pods.forEach((pod, index) => (pod.metadata.name = `checkout-${index}-${HOSTILE}`))
    fleet.version++
    hub = await startHubEmulator({ fleet })
    github = await startGitHubEmulator()
    github.addPullRequest({ owner: OWNER, repo: REPO, number: 12, baseSha: BASE_SHA, headSha: HEAD_SHA, files: [] })
    workspace = makeWorkspace({})
  })
  afterAll(async () => {
    workspace.cleanup()
    await Promise.all([hub.close(), github.close()])
  })

  it('are shown as <U+XXXX> in the comment, the summary and the log, raw and rendered', async () => {
    const result = await runStep({
      inputs: {
        command: 'impact',
        'hub-url': hub.url,
        token: hub.token,
        'github-token': ACTIONS_TOKEN,
        org: hub.org,
        workspace: hub.workspace,
        targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}]',
      },
      env: pullRequestEnv(github.url, workspace.dir, '9302'),
      event: pullRequestEvent(12, BASE_SHA, HEAD_SHA),
    })
    expect(result.code, result.stdout).toBe(0)
    const [comment] = github.comments(OWNER, REPO, 12)
    expect(comment?.body).toContain('checkout-')
    expectShownNotRaw(places(result, { comment: comment?.body ?? '' }), [
      'comment',
      'job summary',
      ...(CMARK_GFM ? ['comment rendered'] : []),
    ])
  })
})
