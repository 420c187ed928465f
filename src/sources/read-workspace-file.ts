/**
 * Reading a manifest from the checkout, which the pull request controls: only a regular file
 * whose real path lies inside the workspace's real path, and only up to a size cap. A symlink
 * to a secret outside the checkout, to /dev/zero or a FIFO, or a 50 MB file is skipped with a
 * reason and never read. Where a skipped link pointed is not said: that path is not ours to
 * publish.
 */
import { constants } from 'node:fs'
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { formatBytes } from '../units.js'
import { errorCode } from '../http/wire.js'
import { redact } from '../redact.js'

/**
 * The largest manifest file read, from the checkout or from GitHub at the base commit. 4 MiB:
 * Kubernetes stores at most ~1.5 MiB per object, so this holds a couple of the largest
 * objects or a generated install bundle of many CRDs (the big ones are 1-3 MB), while a file
 * built to exhaust memory or time is refused before it is read.
 */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024

export type FileRead = { text: string } | { skipped: string }

/** The real path of the workspace, against which every file's real path is checked. */
export function workspaceRoot(workspace: string): Promise<string> {
  return realpath(workspace)
}

/** Reads `path` (relative to the workspace) if it is a regular file inside it, at most `maxBytes` long. */
export async function readWorkspaceFile(root: string, path: string, maxBytes = MAX_MANIFEST_BYTES): Promise<FileRead> {
  let real: string
  try {
    real = await realpath(resolve(root, path))
  } catch (error) {
    return { skipped: errorCode(error) === 'ELOOP' ? 'a symlink loop: nothing was read' : MISSING }
  }
  if (!isInside(root, real)) return { skipped: OUTSIDE }
  let handle: FileHandle
  try {
    // O_NOFOLLOW: the last part cannot have become a link since realpath; O_NONBLOCK: a FIFO does not hang the step
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    return {
      skipped:
        errorCode(error) === 'ENOENT' ? MISSING : `not readable (${errorCode(error) ?? 'error'}): nothing was read`,
    }
  }
  try {
    // a folder on the way could have been swapped for a link meanwhile: ask the kernel what was opened
    const opened = await openedPath(handle)
    if (opened !== undefined && !isInside(root, opened)) return { skipped: OUTSIDE }
    const stat = await handle.stat()
    if (!stat.isFile())
      return { skipped: 'not a regular file (a folder, device, FIFO or socket): only regular files are read' }
    if (stat.size > maxBytes) return { skipped: tooLarge(stat.size, maxBytes) }
    return await readAtMost(handle, stat.size, maxBytes)
  } finally {
    await handle.close()
  }
}

/** The reason for a file over the cap, shared with files read from GitHub. */
export function tooLarge(size: number, maxBytes: number): string {
  return `${formatBytes(size)}, larger than the ${formatBytes(maxBytes)} read for a manifest file: split it, or name its objects in \`targets\``
}

const MISSING = 'not in the workspace: check out the pull request head (actions/checkout) before this step'
const OUTSIDE = 'a symlink to a file outside the workspace: only files inside the checkout are read'

/** Reads the file `fstat` measured; a file that grows meanwhile is refused rather than read on. */
async function readAtMost(handle: FileHandle, size: number, maxBytes: number): Promise<FileRead> {
  const buffer = Buffer.allocUnsafe(size + 1)
  let filled = 0
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  if (filled > size)
    return { skipped: filled > maxBytes ? tooLarge(filled, maxBytes) : 'grew while it was read: nothing was used' }
  // The pull request wrote the file, and could plant a secret in it: redacted as it is read.
  return { text: redact(buffer.toString('utf8', 0, filled)) }
}

/** Linux names the file behind a descriptor in /proc; elsewhere there is no such answer. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`)
  } catch {
    return undefined
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}
