// Repositories: found or created by owner and name, their refs, and the repository object.
import { accountId, stableId, userObject } from './identities.ts'
import type { GitHubUser } from './identities.ts'
import type { AuthorAssociation } from './state.ts'
import type { GitHubState, StoredComment, StoredRepo } from './state.ts'

function repoKey(owner: string, repo: string): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}`
}

export function normalizeRef(ref: string): string {
  return ref.replace(/^refs\/heads\//, '').replace(/^heads\//, '')
}

export function normalizePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '').replace(/\/{2,}/g, '/')
}

export type Repos = ReturnType<typeof createRepos>

export function createRepos(st: GitHubState) {
  const { repos } = st

  function ensureRepo(owner: string, name: string): StoredRepo {
    const key = repoKey(owner, name)
    let r = repos.get(key)
    if (!r) {
      r = {
        owner,
        name,
        id: stableId(key, 100_000_000, 800_000_000),
        defaultBranch: 'main',
        contents: new Map(),
        pulls: new Map(),
        issues: new Set(),
        comments: new Map(),
        deployments: [],
      }
      repos.set(key, r)
    }
    return r
  }

  function findRepo(owner: string, name: string): StoredRepo | undefined {
    return repos.get(repoKey(owner, name))
  }

  function ownerObject(r: StoredRepo): GitHubUser {
    return userObject(st.apiBase, r.owner, 'User', accountId(r.owner, 'User'))
  }

  function repoObject(r: StoredRepo): Record<string, unknown> {
    return {
      id: r.id,
      node_id: Buffer.from(`010:Repository${r.id}`).toString('base64'),
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      private: false,
      owner: ownerObject(r),
      html_url: `https://github.com/${r.owner}/${r.name}`,
      url: `${st.apiBase}/repos/${r.owner}/${r.name}`,
      fork: false,
      default_branch: r.defaultBranch,
      visibility: 'public',
    }
  }

  function issueComments(r: StoredRepo, issue: number): StoredComment[] {
    return [...r.comments.values()].filter((c) => c.issue === issue).sort((a, b) => a.id - b.id)
  }

  function knownRefs(r: StoredRepo): Set<string> {
    const refs = new Set<string>([r.defaultBranch, ...r.contents.keys()])
    for (const p of r.pulls.values()) {
      refs.add(p.baseSha).add(p.headSha).add(p.baseRef).add(p.headRef)
    }
    return refs
  }

  function defaultAssociation(r: StoredRepo, login: string): AuthorAssociation {
    return login.toLowerCase() === r.owner.toLowerCase() ? 'OWNER' : 'NONE'
  }

  return { ensureRepo, findRepo, ownerObject, repoObject, issueComments, knownRefs, defaultAssociation }
}
