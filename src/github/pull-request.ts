/**
 * The pull request a workflow runs for: which one (from the runner's event file), which files
 * it changes, and a file's text at a commit.
 */
import { existsSync, readFileSync } from 'node:fs'
import type { GitHubClient } from './client.js'
import { GitHubError, describeFailure } from './errors.js'
import { redact } from '../redact.js'

export interface RepositoryRef {
  owner: string
  repo: string
}

export interface PullRequestRef extends RepositoryRef {
  number: number
  baseSha: string
  headSha: string
}

type ChangedFileStatus = 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged'

export interface ChangedFile {
  path: string
  status: ChangedFileStatus
  /** The path before a rename (or the source of a copy). */
  previousPath?: string | undefined
}

/** GitHub's "list pull request files" stops here; a list this long may be incomplete. */
export const MAX_LISTED_PR_FILES = 3000

const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i

/**
 * The pull request of a `pull_request` or `pull_request_target` run (any event whose payload
 * carries `pull_request` with its base and head), or undefined when there is none: another
 * event, or no event file (not on a runner). `repository` is GITHUB_REPOSITORY, "owner/repo";
 * the payload's repository is the fallback.
 */
export function readPullRequestEvent(
  eventPath: string | undefined,
  repository: string | undefined,
): PullRequestRef | undefined {
  if (!eventPath || !existsSync(eventPath)) return undefined
  let payload: unknown
  try {
    payload = JSON.parse(readFileSync(eventPath, 'utf8'))
  } catch (error) {
    throw new GitHubError({
      operation: `read the workflow event file ${eventPath}`,
      hint: 'GITHUB_EVENT_PATH should name the JSON file the runner writes for the event.',
      cause: error,
    })
  }
  const pull = field(payload, 'pull_request')
  const number = field(pull, 'number')
  const baseSha = field(field(pull, 'base'), 'sha')
  const headSha = field(field(pull, 'head'), 'sha')
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) return undefined
  if (typeof baseSha !== 'string' || !COMMIT_SHA.test(baseSha)) return undefined
  if (typeof headSha !== 'string' || !COMMIT_SHA.test(headSha)) return undefined
  const repo = splitRepository(repository) ?? repositoryOfPayload(payload)
  if (!repo) return undefined
  return { ...repo, number, baseSha, headSha }
}

/** Every file the pull request changes, following all pages (GitHub caps the list at 3000). */
export async function listChangedFiles(
  octokit: GitHubClient,
  pr: Pick<PullRequestRef, 'owner' | 'repo' | 'number'>,
): Promise<ChangedFile[]> {
  try {
    const files = await octokit.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
      owner: pr.owner,
      repo: pr.repo,
      pull_number: pr.number,
      per_page: 100,
    })
    return files.map((file) => ({
      path: file.filename,
      status: file.status,
      ...(file.previous_filename !== undefined ? { previousPath: file.previous_filename } : {}),
    }))
  } catch (error) {
    throw describeFailure(error, `list the files of pull request ${pr.owner}/${pr.repo}#${pr.number}`)
  }
}

/** A file's text at a commit or branch; undefined when the file does not exist there (or is a directory). @internal */
export async function readFileAtRef(
  octokit: GitHubClient,
  repository: RepositoryRef,
  path: string,
  ref: string,
): Promise<string | undefined> {
  const encodedPath = encodePath(path)
  const operation = `read ${path} at ${ref} in ${repository.owner}/${repository.repo}`
  try {
    const response = await octokit.request(`GET /repos/{owner}/{repo}/contents/${encodedPath}`, {
      owner: repository.owner,
      repo: repository.repo,
      ref,
      mediaType: { format: 'raw' },
    })
    return fileText(response.data)
  } catch (error) {
    if (isMissingFile(error)) return undefined
    throw describeFailure(error, operation)
  }
}

/** A missing file is an answer; a missing commit is not (treating it as "no file" would report every manifest as added). */
function isMissingFile(error: unknown): boolean {
  return error instanceof GitHubError && error.status === 404 && !/no commit found/i.test(error.githubMessage ?? '')
}

function encodePath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/')
}

/**
 * A file's text at a commit or branch if it is at most `maxBytes` long; `{ tooLarge }` with its
 * size otherwise; undefined when it does not exist there. The size is asked first (the object
 * form names it, and holds the content itself up to 1 MB), so a large file is never downloaded.
 */
export async function readBoundedFileAtRef(
  octokit: GitHubClient,
  repository: RepositoryRef,
  path: string,
  ref: string,
  maxBytes: number,
): Promise<{ text: string } | { tooLarge: number } | undefined> {
  let data: unknown
  try {
    // the object form answers for files up to 100 MB (the default JSON form refuses above 1 MB)
    const response = await octokit.request(`GET /repos/{owner}/{repo}/contents/${encodePath(path)}`, {
      owner: repository.owner,
      repo: repository.repo,
      ref,
      mediaType: { format: 'object' },
    })
    data = response.data
  } catch (error) {
    if (isMissingFile(error)) return undefined
    throw describeFailure(error, `read ${path} at ${ref} in ${repository.owner}/${repository.repo}`)
  }
  if (field(data, 'type') !== 'file') return undefined // a directory listing, a symlink or a submodule
  const size = field(data, 'size')
  if (typeof size === 'number' && size > maxBytes) return { tooLarge: size }
  // GitHub leaves `content` empty above 1 MB (encoding "none"): then the raw form, now known to be small
  const text =
    field(data, 'encoding') === 'base64' && typeof field(data, 'content') === 'string'
      ? fileText(data)
      : await readFileAtRef(octokit, repository, path, ref)
  if (text === undefined) return undefined
  // the size GitHub announced is a claim; the bytes received are the fact
  const bytes = Buffer.byteLength(text, 'utf8')
  return bytes > maxBytes ? { tooLarge: bytes } : { text }
}

/**
 * The raw media type answers with text; some proxies and GHES versions answer JSON or bytes.
 * The pull request wrote the file, and could plant a secret in it: redacted once decoded.
 */
function fileText(data: unknown): string | undefined {
  const text = decodedFile(data)
  return text === undefined ? undefined : redact(text)
}

function decodedFile(data: unknown): string | undefined {
  if (typeof data === 'string') return data
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data)
  if (Array.isArray(data)) return undefined // a directory listing
  const content = field(data, 'content')
  const encoding = field(data, 'encoding')
  if (field(data, 'type') === 'file' && typeof content === 'string') {
    return encoding === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content
  }
  return undefined
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
}

function splitRepository(repository: string | undefined): RepositoryRef | undefined {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository?.trim() ?? '')
  return match?.[1] !== undefined && match[2] !== undefined ? { owner: match[1], repo: match[2] } : undefined
}

function repositoryOfPayload(payload: unknown): RepositoryRef | undefined {
  const repository = field(payload, 'repository')
  const owner = field(field(repository, 'owner'), 'login')
  const repo = field(repository, 'name')
  return typeof owner === 'string' && typeof repo === 'string' ? { owner, repo } : undefined
}
