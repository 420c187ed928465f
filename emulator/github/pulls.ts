// Pull requests: what a test seeds, the pull request and its files as the API returns them, and
// the issue behind each pull request.
import { accountId, stableId, userObject } from './identities.ts'
import { blobSha, sha1 } from './contents.ts'
import type { Repos } from './repos.ts'
import type { GitHubState, PullRequestFileInput, StoredPull, StoredRepo } from './state.ts'

/** GitHub's "list pull request files" stops at this many files. */
export const MAX_PR_FILES = 3000

export interface AddPullRequestOptions {
  owner: string
  repo: string
  number: number
  baseSha: string
  headSha: string
  files?: PullRequestFileInput[]
  title?: string
  body?: string | null
  headRef?: string
  baseRef?: string
  state?: 'open' | 'closed'
  draft?: boolean
  /** Login of the PR author (default 'octocat'). */
  user?: string
}

export type Pulls = ReturnType<typeof createPulls>

export function createPulls(st: GitHubState, repos: Repos) {
  const { ownerObject, repoObject, issueComments, defaultAssociation } = repos

  function pullObject(r: StoredRepo, p: StoredPull): Record<string, unknown> {
    const user = userObject(st.apiBase, p.user, 'User', accountId(p.user, 'User'))
    const repoObj = repoObject(r)
    const files = p.files.slice(0, MAX_PR_FILES)
    const id = stableId(`${r.id}:pr:${p.number}`, 1_000_000_000, 900_000_000)
    return {
      url: `${st.apiBase}/repos/${r.owner}/${r.name}/pulls/${p.number}`,
      id,
      node_id: `PR_kwDO${Buffer.from(`${r.id}:${p.number}`).toString('base64url')}`,
      html_url: `https://github.com/${r.owner}/${r.name}/pull/${p.number}`,
      diff_url: `https://github.com/${r.owner}/${r.name}/pull/${p.number}.diff`,
      patch_url: `https://github.com/${r.owner}/${r.name}/pull/${p.number}.patch`,
      issue_url: `${st.apiBase}/repos/${r.owner}/${r.name}/issues/${p.number}`,
      comments_url: `${st.apiBase}/repos/${r.owner}/${r.name}/issues/${p.number}/comments`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      user,
      body: p.body,
      created_at: p.createdAt,
      updated_at: p.createdAt,
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      draft: p.draft,
      head: { label: `${r.owner}:${p.headRef}`, ref: p.headRef, sha: p.headSha, user: ownerObject(r), repo: repoObj },
      base: { label: `${r.owner}:${p.baseRef}`, ref: p.baseRef, sha: p.baseSha, user: ownerObject(r), repo: repoObj },
      author_association: defaultAssociation(r, p.user),
      merged: false,
      mergeable: null,
      comments: issueComments(r, p.number).length,
      review_comments: 0,
      commits: 1,
      additions: files.reduce((n, f) => n + (f.additions ?? 0), 0),
      deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0),
      changed_files: p.files.length,
    }
  }

  function pullFileObject(r: StoredRepo, p: StoredPull, f: PullRequestFileInput): Record<string, unknown> {
    const headContent = r.contents.get(p.headSha)?.get(f.filename)
    const sha =
      f.sha ??
      (headContent !== undefined
        ? blobSha(headContent)
        : f.status === 'removed'
          ? sha1(`removed:${p.baseSha}:${f.filename}`)
          : sha1(`${p.headSha}:${f.filename}`))
    const enc = f.filename.split('/').map(encodeURIComponent).join('/')
    const additions = f.additions ?? 0
    const deletions = f.deletions ?? 0
    const out: Record<string, unknown> = {
      sha,
      filename: f.filename,
      status: f.status,
      additions,
      deletions,
      changes: f.changes ?? additions + deletions,
      blob_url: `https://github.com/${r.owner}/${r.name}/blob/${p.headSha}/${enc}`,
      raw_url: `https://github.com/${r.owner}/${r.name}/raw/${p.headSha}/${enc}`,
      contents_url: `${st.apiBase}/repos/${r.owner}/${r.name}/contents/${enc}?ref=${p.headSha}`,
    }
    if (f.patch !== undefined) out['patch'] = f.patch
    if (f.previous_filename !== undefined) out['previous_filename'] = f.previous_filename
    return out
  }

  function issueObject(r: StoredRepo, n: number): Record<string, unknown> {
    const p = r.pulls.get(n)
    const base = `${st.apiBase}/repos/${r.owner}/${r.name}/issues/${n}`
    const login = p?.user ?? r.owner
    return {
      url: base,
      id: stableId(`${r.id}:issue:${n}`, 1_000_000_000, 900_000_000),
      number: n,
      title: p?.title ?? `Issue ${n}`,
      state: p?.state ?? 'open',
      user: userObject(st.apiBase, login, 'User', accountId(login, 'User')),
      body: p?.body ?? null,
      comments: issueComments(r, n).length,
      comments_url: `${base}/comments`,
      html_url: `https://github.com/${r.owner}/${r.name}/${p ? 'pull' : 'issues'}/${n}`,
      ...(p
        ? {
            pull_request: {
              url: `${st.apiBase}/repos/${r.owner}/${r.name}/pulls/${n}`,
              html_url: `https://github.com/${r.owner}/${r.name}/pull/${n}`,
            },
          }
        : {}),
    }
  }

  return { pullObject, pullFileObject, issueObject }
}
