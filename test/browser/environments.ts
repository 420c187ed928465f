/**
 * A repository's deployments, drawn as a modest page in the manner of GitHub's Environments view:
 * per environment, its latest deployment's latest status (icon and colour), the commit's short
 * sha, the description and "View logs" (the status's log_url). Built only from what the GitHub
 * emulator recorded, every value escaped (edge names, hence environments, come from the hub).
 *
 * Unlike the other pictures this is no markdown: it is GitHub's own page, so it is not run through
 * GitHub's sanitizer (page.js). It loads inspect.js like the others, so the same checks apply.
 */

/** A deployment as the GitHub emulator records it (emulator/github/server.ts). */
export interface RecordedDeployment {
  ref: string
  environment: string
  description: string
  statuses: ReadonlyArray<{ state: string; description: string; log_url: string }>
}

/** How GitHub words and colours a deployment status; an unknown state is shown as recorded, in grey. */
const STATES: Record<string, { label: string; tone: string; icon: string }> = {
  success: { label: 'Success', tone: 'success', icon: 'check' },
  failure: { label: 'Failure', tone: 'danger', icon: 'x' },
  error: { label: 'Error', tone: 'danger', icon: 'x' },
  in_progress: { label: 'In progress', tone: 'attention', icon: 'dot' },
  queued: { label: 'Queued', tone: 'attention', icon: 'dot' },
  pending: { label: 'Pending', tone: 'attention', icon: 'dot' },
  inactive: { label: 'Inactive', tone: 'muted', icon: 'dot' },
}

// Octicons (MIT): check-16, x-16, dot-fill-16.
const ICONS: Record<string, string> = {
  check:
    'M13.78 4.22a.75.75 0 0 1 0 1.06l-7.25 7.25a.75.75 0 0 1-1.06 0L2.22 9.28a.751.751 0 0 1 .018-1.042.751.751 0 0 1 1.042-.018L6 10.94l6.72-6.72a.75.75 0 0 1 1.06 0Z',
  x: 'M3.72 3.72a.75.75 0 0 1 1.06 0L8 6.94l3.22-3.22a.749.749 0 0 1 1.275.326.749.749 0 0 1-.215.734L9.06 8l3.22 3.22a.749.749 0 0 1-.326 1.275.749.749 0 0 1-.734-.215L8 9.06l-3.22 3.22a.751.751 0 0 1-1.042-.018.751.751 0 0 1-.018-1.042L6.94 8 3.72 4.78a.75.75 0 0 1 0-1.06Z',
  dot: 'M8 4a4 4 0 1 1 0 8 4 4 0 0 1 0-8Z',
}

/** The full page: `repository` (owner/name) and its recorded deployments, oldest first. */
export function environmentsPage(repository: string, deployments: readonly RecordedDeployment[]): string {
  // The latest deployment of each environment is what the Environments view shows for it.
  const latest = new Map<string, RecordedDeployment>()
  for (const deployment of deployments) latest.set(deployment.environment, deployment)
  const rows = [...latest.values()]
    .sort((a, b) => a.environment.localeCompare(b.environment))
    .map(environmentRow)
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(repository)} · Environments</title>
<style>${CSS}</style>
</head>
<body>
<div class="frame">
<div class="frame-header"><strong>${escapeHtml(repository)}</strong> Environments · ${latest.size} with deployments</div>
<article class="markdown-body">
<ul class="environments">
${rows}
</ul>
<p class="note">Drawn from the deployments and statuses the action recorded on the GitHub emulator.</p>
</article>
</div>
<script>
window.githubMarkdown = {
  ready: document.fonts.ready.then(() => ({ removed: [], mermaid: { blocks: 0, errors: [] } })),
  openAllDetails() {},
}
</script>
<script src="/assets/inspect.js"></script>
</body>
</html>
`
}

function environmentRow(deployment: RecordedDeployment): string {
  const status = deployment.statuses.at(-1)
  const state = status?.state ?? 'pending'
  const shown = STATES[state] ?? { label: state, tone: 'muted', icon: 'dot' }
  const description = status?.description || deployment.description
  const logs = status && /^https?:\/\//.test(status.log_url) ? status.log_url : ''
  return `<li class="environment">
<span class="icon tone-${shown.tone}"><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="${ICONS[shown.icon]}"></path></svg></span>
<div class="body">
<div class="title"><span class="name">${escapeHtml(deployment.environment)}</span> <span class="state tone-${shown.tone}">${escapeHtml(shown.label)}</span></div>
<div class="meta"><code>${escapeHtml(deployment.ref.slice(0, 7))}</code> · ${escapeHtml(description)}</div>
</div>
${logs ? `<a class="logs" href="${escapeHtml(logs)}">View logs</a>` : ''}
</li>`
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

// GitHub's light colours (Primer): borders, muted text, success / danger / attention.
const CSS = `
html, body { margin: 0; background: #ffffff; }
body { padding: 16px; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.frame { border: 1px solid #d1d9e0; border-radius: 6px; overflow: hidden; }
.frame-header { padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; color: #59636e; }
.frame-header strong { color: #1f2328; font-weight: 600; }
.environments { list-style: none; margin: 0; padding: 0; }
.environment { display: flex; align-items: flex-start; gap: 12px; padding: 12px 16px; border-bottom: 1px solid #d1d9e0; }
.icon { flex: none; display: inline-flex; width: 24px; height: 24px; border-radius: 50%; align-items: center; justify-content: center; }
.icon svg { fill: currentColor; }
.body { flex: 1; min-width: 0; }
.name { font-weight: 600; }
.state { margin-left: 6px; padding: 0 7px; border: 1px solid currentColor; border-radius: 2em; font-size: 12px; font-weight: 500; }
.meta { color: #59636e; }
.meta code { font: 12px ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace; padding: 1px 4px; background: #eff2f5; border-radius: 6px; color: #1f2328; }
.logs { flex: none; color: #0969da; text-decoration: none; }
.tone-success { color: #1a7f37; } .icon.tone-success { background: #dafbe1; }
.tone-danger { color: #d1242f; } .icon.tone-danger { background: #ffebe9; }
.tone-attention { color: #9a6700; } .icon.tone-attention { background: #fff8c5; }
.tone-muted { color: #59636e; } .icon.tone-muted { background: #eff2f5; }
.note { margin: 0; padding: 8px 16px; color: #59636e; font-size: 12px; }
`
