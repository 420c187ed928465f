/**
 * What `npm run local` says about a dotenv file before and after local-action runs it, where the runner
 * or a newcomer would need a word the action cannot give: an input action.yml does not declare (the
 * runner warns "Unexpected input(s)" and the action never sees it), and a hub URL on this machine where
 * nothing listens (the emulator was not started). Pure but for `connectionRefused`, which opens one socket.
 */
import { connect } from 'node:net'

/** The variable the runner sets for an input: `INPUT_` and the name upper-cased, spaces as `_`, hyphens kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/**
 * The runner's warning for a step's `with:` keys that action.yml does not declare, worded as the runner
 * words it (`Unexpected input(s) 'a', 'b', valid inputs are ['x', 'y']`), for the INPUT_ variables of a
 * dotenv file; undefined when every one is declared. A variable's input is named as a `with:` key would
 * be (lower case); the runner ignores such an input, and so does the action, so a typo is otherwise silent.
 */
export function unexpectedInputs(variables: Record<string, string>, declared: readonly string[]): string | undefined {
  const known = new Set(declared.map(inputVariable))
  const unexpected = Object.keys(variables)
    .filter((variable) => variable.startsWith('INPUT_') && !known.has(variable.toUpperCase()))
    .map((variable) => variable.slice('INPUT_'.length).toLowerCase())
  if (unexpected.length === 0) return undefined
  return `Unexpected input(s) '${unexpected.join("', '")}', valid inputs are ['${declared.join("', '")}']`
}

/** Host and port of a hub URL on this machine (localhost, 127.0.0.0/8, ::1); undefined for any other or a bad URL. */
export function loopbackAddress(url: string | undefined): { host: string; port: number } | undefined {
  if (!url) return undefined
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  if (host !== 'localhost' && host !== '::1' && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return undefined
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port)
  return { host, port }
}

/** Whether a TCP connection to the address is refused (nothing listens there); any other outcome is false. */
export function connectionRefused(address: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port })
    const done = (refused: boolean): void => {
      socket.destroy()
      resolve(refused)
    }
    socket.setTimeout(2_000, () => done(false))
    socket.once('connect', () => done(false))
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'))
  })
}

/** What to do when nothing listens at the hub URL of the file: start the emulator on that port first. */
export function startEmulatorHint(url: string, port: number, file: string): string {
  return (
    `Nothing listens at ${url} (INPUT_HUB-URL in ${file}): start the hub emulator first, in another terminal, ` +
    `with \`npm run emulator -- --port ${port}\`, then run this again; or run \`npm run local\` where there is ` +
    'no .env, which starts one of its own.'
  )
}
