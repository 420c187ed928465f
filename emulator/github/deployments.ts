// Deployments and their statuses, as GitHub's REST API stores and answers them: a deployment of a
// ref to an environment, and a list of statuses, newest first. Only the fields the action sends
// and reads are kept; what the API validates that the action relies on is validated here too.
import { DOCS, err, isoSeconds, notFound, parsePositiveInt } from './replies.ts'
import type { Ctx, Reply } from './replies.ts'
import type { GitHubState, StoredDeployment, StoredRepo } from './state.ts'

const DOC_DEPLOYMENTS = `${DOCS}/deployments/deployments`
const DOC_STATUSES = `${DOCS}/deployments/statuses`
const STATES = new Set(['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'])
/** GitHub's limits: an environment name of 255 characters, a description of 140. */
const MAX_ENVIRONMENT = 255
const MAX_DESCRIPTION = 140

const fields = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
const invalid = (doc: string, message: string): Reply => err(422, `Validation Failed: ${message}`, doc)

export function createDeployments(st: GitHubState) {
  function deploymentObject(r: StoredRepo, d: StoredDeployment) {
    const url = `${st.apiBase}/repos/${r.owner}/${r.name}/deployments/${d.id}`
    return {
      url,
      id: d.id,
      sha: d.ref,
      ref: d.ref,
      task: 'deploy',
      payload: d.payload,
      environment: d.environment,
      description: d.description,
      creator: { login: d.creator },
      created_at: d.createdAt,
      updated_at: d.createdAt,
      statuses_url: `${url}/statuses`,
      transient_environment: d.transientEnvironment,
      production_environment: d.productionEnvironment,
    }
  }

  function statusObject(r: StoredRepo, d: StoredDeployment, s: StoredDeployment['statuses'][number]) {
    return {
      id: s.id,
      state: s.state,
      description: s.description,
      environment: d.environment,
      log_url: s.logUrl,
      creator: { login: s.creator },
      created_at: s.createdAt,
      deployment_url: `${st.apiBase}/repos/${r.owner}/${r.name}/deployments/${d.id}`,
    }
  }

  function create(ctx: Ctx, r: StoredRepo): Reply {
    const b = fields(ctx.body)
    const ref = b.ref
    if (typeof ref !== 'string' || ref === '') return invalid(DOC_DEPLOYMENTS, 'ref is missing')
    const environment = b.environment ?? 'production'
    if (typeof environment !== 'string' || environment.length > MAX_ENVIRONMENT)
      return invalid(DOC_DEPLOYMENTS, 'environment is invalid')
    const description = b.description ?? ''
    if (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
      return invalid(DOC_DEPLOYMENTS, 'description is too long (maximum is 140 characters)')
    if (b.auto_merge !== false && (!Array.isArray(b.required_contexts) || b.required_contexts.length > 0))
      // the emulator holds no commit statuses or branches to merge: it answers only what needs neither
      return err(409, 'The emulator answers only auto_merge: false with required_contexts: []', DOC_DEPLOYMENTS)
    const d: StoredDeployment = {
      id: st.nextDeploymentId++,
      ref,
      environment,
      description,
      payload: b.payload ?? {},
      transientEnvironment: b.transient_environment === true,
      productionEnvironment: b.production_environment === true,
      creator: ctx.identity.login,
      createdAt: isoSeconds(st.now()),
      statuses: [],
    }
    r.deployments.push(d)
    return { status: 201, body: deploymentObject(r, d) }
  }

  function list(ctx: Ctx, r: StoredRepo): Reply {
    const q = ctx.url.searchParams
    const want = (name: string, value: string) => q.get(name) === null || q.get(name) === value
    const found = r.deployments
      .filter((d) => want('sha', d.ref) && want('ref', d.ref) && want('environment', d.environment))
      .reverse()
    return { status: 200, body: found.map((d) => deploymentObject(r, d)) }
  }

  function addStatus(ctx: Ctx, r: StoredRepo, d: StoredDeployment): Reply {
    const b = fields(ctx.body)
    if (typeof b.state !== 'string' || !STATES.has(b.state))
      return invalid(DOC_STATUSES, 'state is not included in the list')
    const description = b.description ?? ''
    if (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
      return invalid(DOC_STATUSES, 'description is too long (maximum is 140 characters)')
    const s = {
      id: st.nextDeploymentId++,
      state: b.state,
      description,
      logUrl: typeof b.log_url === 'string' ? b.log_url : '',
      autoInactive: b.auto_inactive !== false,
      creator: ctx.identity.login,
      createdAt: isoSeconds(st.now()),
    }
    d.statuses.push(s)
    // auto_inactive: a success makes the earlier non-transient, non-production deployments of the environment inactive
    if (s.state === 'success' && s.autoInactive)
      for (const other of r.deployments)
        if (
          other !== d &&
          other.environment === d.environment &&
          !other.transientEnvironment &&
          !other.productionEnvironment &&
          other.statuses.at(-1)?.state !== 'inactive'
        )
          other.statuses.push({ ...s, id: st.nextDeploymentId++, state: 'inactive', description: '', logUrl: '' })
    return { status: 201, body: statusObject(r, d, s) }
  }

  /** The routes under /repos/{owner}/{repo}/deployments; undefined for another path. */
  function route(method: string, rest: string[]) {
    const [id, sub, extra] = rest
    if (rest.length === 0 && method === 'POST') return { write: true, doc: DOC_DEPLOYMENTS, run: create }
    if (rest.length === 0 && method === 'GET') return { write: false, doc: DOC_DEPLOYMENTS, run: list }
    if (sub !== 'statuses' || extra !== undefined || rest.length !== 2) return undefined
    const find = (r: StoredRepo) => r.deployments.find((d) => d.id === parsePositiveInt(id ?? null))
    if (method === 'POST')
      return {
        write: true,
        doc: DOC_STATUSES,
        run: (ctx: Ctx, r: StoredRepo) => {
          const d = find(r)
          return d ? addStatus(ctx, r, d) : notFound(DOC_STATUSES)
        },
      }
    if (method === 'GET')
      return {
        write: false,
        doc: DOC_STATUSES,
        run: (_ctx: Ctx, r: StoredRepo) => {
          const d = find(r)
          return d
            ? { status: 200, body: [...d.statuses].reverse().map((s) => statusObject(r, d, s)) }
            : notFound(DOC_STATUSES)
        },
      }
    return undefined
  }

  return { route, deploymentObject, statusObject }
}

export type Deployments = ReturnType<typeof createDeployments>
