// Repository contents at a ref: a file as JSON with base64 content or raw, a directory as a list
// or an object.
import { createHash } from 'node:crypto'
import { DOC, err, notFound } from './replies.ts'
import type { Ctx, Reply } from './replies.ts'
import { normalizePath, normalizeRef } from './repos.ts'
import type { Repos } from './repos.ts'
import type { GitHubState, StoredRepo } from './state.ts'

export function sha1(s: string | Buffer): string {
  return createHash('sha1').update(s).digest('hex')
}

/** Git blob sha of a UTF-8 string, as GitHub reports for file contents. */
export function blobSha(content: string): string {
  const bytes = Buffer.from(content, 'utf8')
  return sha1(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
}

/** Ruby Base64.encode64 style: 60-char lines, each terminated by "\n". */
function base64Lines(content: string): string {
  const b64 = Buffer.from(content, 'utf8').toString('base64')
  if (b64 === '') return ''
  let out = ''
  for (let i = 0; i < b64.length; i += 60) out += b64.slice(i, i + 60) + '\n'
  return out
}

export type Contents = ReturnType<typeof createContents>

export function createContents(st: GitHubState, repos: Repos) {
  const { knownRefs } = repos

  function contentEntry(
    r: StoredRepo,
    ref: string,
    path: string,
    type: 'file' | 'dir',
    content?: string,
  ): Record<string, unknown> {
    const name = path.split('/').pop() ?? path
    const sha = type === 'file' ? blobSha(content ?? '') : sha1(`tree:${ref}:${path}`)
    const encPath = path.split('/').map(encodeURIComponent).join('/')
    const self = `${st.apiBase}/repos/${r.owner}/${r.name}/contents/${encPath}?ref=${encodeURIComponent(ref)}`
    const git = `${st.apiBase}/repos/${r.owner}/${r.name}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`
    const html = `https://github.com/${r.owner}/${r.name}/${type === 'file' ? 'blob' : 'tree'}/${ref}/${encPath}`
    return {
      type,
      name,
      path,
      sha,
      size: type === 'file' ? Buffer.byteLength(content ?? '', 'utf8') : 0,
      url: self,
      html_url: html,
      git_url: git,
      download_url: type === 'file' ? `https://raw.githubusercontent.com/${r.owner}/${r.name}/${ref}/${encPath}` : null,
      _links: { self, git, html },
    }
  }

  function getContents(ctx: Ctx, r: StoredRepo, rawPath: string): Reply {
    const path = normalizePath(rawPath)
    const ref = normalizeRef(ctx.url.searchParams.get('ref') ?? r.defaultBranch)
    if (!knownRefs(r).has(ref)) return err(404, `No commit found for the ref ${ref}`, DOC.contents)
    const files = r.contents.get(ref) ?? new Map<string, string>()
    const accept = ctx.headers['accept'] ?? ''
    const content = path === '' ? undefined : files.get(path)
    if (content !== undefined) {
      if (/application\/vnd\.github(?:\.v3)?\.raw/i.test(accept)) {
        return {
          status: 200,
          body: content,
          contentType: 'text/plain; charset=utf-8',
          headers: { etag: `"${blobSha(content)}"` },
        }
      }
      return {
        status: 200,
        body: { ...contentEntry(r, ref, path, 'file', content), content: base64Lines(content), encoding: 'base64' },
        headers: { etag: `"${blobSha(content)}"` },
      }
    }
    // directory?
    const prefix = path === '' ? '' : `${path}/`
    const children = new Map<string, 'file' | 'dir'>()
    for (const p of files.keys()) {
      if (!p.startsWith(prefix)) continue
      const rest = p.slice(prefix.length)
      const slash = rest.indexOf('/')
      if (slash === -1) children.set(rest, 'file')
      else children.set(rest.slice(0, slash), 'dir')
    }
    if (children.size === 0 && path !== '') return notFound(DOC.contents)
    const entries = [...children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, type]) => {
        const p = prefix + name
        return contentEntry(r, ref, p, type, type === 'file' ? files.get(p) : undefined)
      })
    if (/application\/vnd\.github(?:\.v3)?\.object/i.test(accept)) {
      return { status: 200, body: { ...contentEntry(r, ref, path, 'dir'), entries } }
    }
    return { status: 200, body: entries }
  }

  return { getContents }
}
