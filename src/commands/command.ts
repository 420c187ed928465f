/**
 * What a command's row declares (the table is ./index.ts): its inputs (schema, checks, its part of
 * the settings), how it runs, what it would send, the outputs it sets and its time budget. A command's plan is built from the same client builders its step sends
 * through, in its own folder, so `dry-run: true` cannot go on describing a sequence the step
 * no longer sends.
 */
import { AgentsClient } from '../hub/agents.js'
import { prepareRequest, requestUrl, type HubRequest } from '../hub/request.js'
import type { HubTransport } from '../hub/transport.js'
import type { Verdict } from '../runner/workflow.js'
import type { InputRow, StepSettings } from '../settings/settings.js'

/** One request a dry run prints: exactly as the transport would send it, with the token shown as ***. */
export interface PlannedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: unknown
  /** What this request is for, and what depends on earlier answers. */
  note: string
}

/** Outputs a dry run sets: its result file, and what a plan can tell without a request (scripts/surface.ts lists them). @internal */
export const DRY_RUN_OUTPUTS = ['result-file', 'targets-count'] as const

/** What `dry-run: true` shows of a command: the requests, and what it derived before any. */
export interface Plan {
  requests: PlannedRequest[]
  /** Values derived from the inputs, logged and written to the dry run's result file (null: none). */
  derived?: ReadonlyArray<{ key: string; label: string; value: string | null }>
  /**
   * What the step would do next that depends on what those requests or the files find, so has
   * no request to show yet (impact's queries for the objects in `manifests`): said, not faked.
   */
  then?: readonly string[]
  /** Outputs known before any request (impact's `targets-count` when every target is named). */
  outputs?: Partial<Record<Exclude<(typeof DRY_RUN_OUTPUTS)[number], 'result-file'>, string>>
}

/** A command's code: loaded only when the command runs or is planned. */
export interface CommandCode<S> {
  /** Runs the step; it publishes its own outputs, summary and comment, and returns its verdict. */
  step: (settings: S, transport: HubTransport, signal: AbortSignal) => Promise<Verdict | undefined>
  /** The requests the step would send, built and not sent. */
  plan: (settings: S, transport: HubTransport) => Plan
}

/** An output as action.yml declares it (`npm run docs` writes action.yml's `outputs:` from the rows: scripts/surface.ts). */
export interface OutputDeclaration {
  description: string
  /** `result-file`: the schema and version at the head of the file the step writes, which its description lists. */
  result?: { schema: string; version: number }
}

/** The path of the result file, whose description names the schema each command writes. */
export const resultFile = (schema: string, version: number): OutputDeclaration => ({
  description: 'Path of a JSON file with the whole result',
  result: { schema, version },
})

/** The dry run's result file (commands/dry-run/dry-run.ts writes it; scripts/surface.ts describes it). @internal */
export const DRY_RUN_RESULT = resultFile('hub-action/dry-run', 1)

/**
 * A row's outputs, declared, their names checked by the compiler to be exactly `Name`: the keys
 * of the outputs its publisher builds (a name missing or extra is a type error that names it).
 */
export const outputsOf =
  <Name extends string>() =>
  <const Outputs extends Readonly<Record<Name, OutputDeclaration>>>(
    outputs: Outputs &
      (Exclude<keyof Outputs, Name> extends never ? unknown : { unknown: Exclude<keyof Outputs, Name> }),
  ): Readonly<Record<Name, OutputDeclaration>> =>
    outputs

/** A row of the command table: its inputs as the settings reader reads them, its outputs, and its code. */
export interface Command<C extends string, Data, Part extends object, Name extends string> extends InputRow<
  Data,
  Part,
  Name
> {
  /** Every output the step may set, declared, in action.yml's order. */
  outputs: Readonly<Record<string, OutputDeclaration>>
  /** The step's one time budget in seconds (`timeout-seconds`); undefined: none (one request with its own ceiling). */
  budgetSeconds(part: Part): number | undefined
  load: () => Promise<CommandCode<StepSettings<C, Part>>>
}

/**
 * A row, its types inferred: `data` is its schema's, the step's settings are the part `build`
 * makes, and every input its schema reads must be among its declared `inputs`.
 */
export const command = <C extends string, Data, Part extends object, Name extends string>(
  _name: C,
  row: Command<C, Data, Part, Name> &
    (Exclude<keyof NoInfer<Data>, NoInfer<Name>> extends never
      ? unknown
      : { undeclared: Exclude<keyof NoInfer<Data>, NoInfer<Name>> }),
): Command<C, Data, Part, Name> => row

/** The request exactly as the transport would send it, with the token shown as ***. */
export function planned(transport: HubTransport, request: HubRequest, note: string): PlannedRequest {
  const url = requestUrl(transport.identity, request)
  const { headers } = prepareRequest(transport.identity, request)
  return {
    method: request.method,
    url: url.href,
    headers: { ...headers, authorization: 'Bearer ***' },
    ...(request.body !== undefined ? { body: request.body } : {}),
    note,
  }
}

/** Every graph command first asks whoami: the graph answers a wrong org or workspace with an empty fleet. */
export function graphPreflight(transport: HubTransport): PlannedRequest {
  return planned(
    transport,
    new AgentsClient(transport).whoamiCall(),
    'preflight: an empty workspaceUUID stops the step before any graph query',
  )
}
