/**
 * Reading manifests from a checkout the pull request controls: regular files inside the
 * workspace's real path are read; links out of it, devices, FIFOs, folders and files over the
 * cap are skipped with a reason and never read.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_MANIFEST_BYTES, readWorkspaceFile, workspaceRoot } from '../../../src/sources/read-workspace-file.js'

const SECRET_NAME = 'db-password-outside-7f3a'
let base: string
let root: string

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'read-ws-'))
  const workspace = join(base, 'ws')
  mkdirSync(join(workspace, 'deploy', 'folder.yaml'), { recursive: true })
  writeFileSync(join(base, 'outside.yaml'), `apiVersion: v1\nkind: Secret\nmetadata: {name: ${SECRET_NAME}}\n`)
  writeFileSync(join(workspace, 'deploy', 'app.yaml'), 'kind: Deployment\n')
  writeFileSync(join(workspace, 'deploy', 'big.yaml'), 'x'.repeat(2048))
  symlinkSync('app.yaml', join(workspace, 'deploy', 'alias.yaml'))
  symlinkSync(join(base, 'outside.yaml'), join(workspace, 'deploy', 'leak.yaml'))
  symlinkSync('../../outside.yaml', join(workspace, 'deploy', 'relative-leak.yaml'))
  symlinkSync(base, join(workspace, 'parent'))
  symlinkSync('/dev/zero', join(workspace, 'deploy', 'zero.yaml'))
  symlinkSync('loop-b.yaml', join(workspace, 'deploy', 'loop-a.yaml'))
  symlinkSync('loop-a.yaml', join(workspace, 'deploy', 'loop-b.yaml'))
  execFileSync('mkfifo', [join(workspace, 'deploy', 'fifo.yaml')])
  // the workspace itself reached through a link: containment is checked on real paths
  symlinkSync(workspace, join(base, 'ws-link'))
  root = await workspaceRoot(join(base, 'ws-link'))
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

describe('readWorkspaceFile', () => {
  it('reads a regular file, and a link to one inside the workspace', async () => {
    expect(await readWorkspaceFile(root, 'deploy/app.yaml')).toEqual({ text: 'kind: Deployment\n' })
    expect(await readWorkspaceFile(root, 'deploy/alias.yaml')).toEqual({ text: 'kind: Deployment\n' })
  })

  it('skips links out of the workspace without reading them or naming their target', async () => {
    for (const path of ['deploy/leak.yaml', 'deploy/relative-leak.yaml', 'parent/outside.yaml', '../outside.yaml']) {
      const read = await readWorkspaceFile(root, path)
      expect(read, path).toEqual({
        skipped: 'a symlink to a file outside the workspace: only files inside the checkout are read',
      })
      expect(JSON.stringify(read)).not.toContain(base)
    }
  })

  it('skips /dev/zero, a FIFO and a folder (a FIFO without hanging)', async () => {
    expect(await readWorkspaceFile(root, 'deploy/zero.yaml')).toEqual({
      skipped: 'a symlink to a file outside the workspace: only files inside the checkout are read',
    })
    const notRegular = { skipped: 'not a regular file (a folder, device, FIFO or socket): only regular files are read' }
    expect(await readWorkspaceFile(root, 'deploy/fifo.yaml')).toEqual(notRegular)
    expect(await readWorkspaceFile(root, 'deploy/folder.yaml')).toEqual(notRegular)
    // /dev/zero once the workspace is the root: a device, not read either
    expect(await readWorkspaceFile('/', 'dev/zero')).toEqual(notRegular)
  })

  it('skips a file over the cap with its size and the cap', async () => {
    expect(await readWorkspaceFile(root, 'deploy/big.yaml', 2048)).toEqual({ text: 'x'.repeat(2048) })
    expect(await readWorkspaceFile(root, 'deploy/big.yaml', 1000)).toEqual({
      skipped:
        '2,048 bytes, larger than the 1,000 bytes read for a manifest file: split it, or name its objects in `targets`',
    })
    expect(MAX_MANIFEST_BYTES).toBe(4 * 1024 * 1024)
  })

  it('names a missing file and a symlink loop', async () => {
    expect(await readWorkspaceFile(root, 'deploy/missing.yaml')).toEqual({
      skipped: 'not in the workspace: check out the pull request head (actions/checkout) before this step',
    })
    expect(await readWorkspaceFile(root, 'deploy/loop-a.yaml')).toEqual({ skipped: 'a symlink loop: nothing was read' })
  })
})
