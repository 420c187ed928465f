/**
 * Result files: the whole answer of a step as JSON, for steps that want more than the outputs
 * carry. Each step writes its own, with a versioned schema id at its head; here is only where
 * they go and how they are written.
 */
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { redact } from '../redact.js'
import { writeJsonPieces } from './json-pieces.js'

/** Where result files go: the runner's temp folder (cleaned after the job), else the OS's. */
export function resultDirectory(runnerTemp: string | undefined): string {
  const directory = join(runnerTemp || tmpdir(), 'hub-action')
  mkdirSync(directory, { recursive: true })
  return directory
}

/**
 * Write a result file, as `JSON.stringify(content, null, 2)` would, but in pieces: a rollout gate
 * of 1,000 targets × 50 edges writes 16 MB, and its text, escaped, redacted and encoded whole
 * held over 100 MB at once (bench/rollout.ts). Every string is redacted before JSON escapes it
 * (a secret holding `"` or `\` would no longer match once escaped), then the text once more,
 * a piece at a time, for object keys (./json-pieces.ts says where a piece may end).
 */
export function writeJsonFile(directory: string, name: string, content: unknown): string {
  const path = join(directory, safeFileName(name))
  const fd = openSync(path, 'w', 0o600)
  try {
    writeJsonPieces(content, (text) => writeSync(fd, redact(text), null, 'utf8'))
    writeSync(fd, '\n', null, 'utf8')
  } finally {
    closeSync(fd)
  }
  return path
}

/** Names come from the hub (a run id): only safe characters, and short enough for any file system. */
const MAX_FILE_NAME = 100

function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_')
  if (safe.length <= MAX_FILE_NAME) return safe
  // Cut, with a digest of the whole name so two long names still differ.
  const extension = extname(safe).slice(0, 10)
  const digest = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12)
  return `${safe.slice(0, MAX_FILE_NAME - extension.length - digest.length - 1)}-${digest}${extension}`
}
