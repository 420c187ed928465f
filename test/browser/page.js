// Runs inside the page that render.ts builds (plain browser JavaScript, served as is).
//
// It does in the browser what GitHub does on its servers after the markdown is turned into
// HTML: sanitize with GitHub's allowlist (DOMPurify), then turn `> [!NOTE]` quotes into alerts,
// mark task lists, and render ```mermaid blocks as diagrams. `window.githubMarkdown.ready`
// resolves to what happened (sanitizer removals, Mermaid errors); inspect.js, loaded next, adds
// `inspect()`: what a reader would see, for the test to judge.
;(function () {
  'use strict'

  // GitHub's sanitization allowlist (html-pipeline's SanitizationFilter), plus the task-list
  // checkbox the markdown renderer produces. No class, id or style: user HTML cannot style itself.
  const ALLOWED_TAGS = [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'br',
    'b',
    'i',
    'strong',
    'em',
    'a',
    'pre',
    'code',
    'img',
    'tt',
    'div',
    'ins',
    'del',
    'sup',
    'sub',
    'p',
    'ol',
    'ul',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'blockquote',
    'dl',
    'dt',
    'dd',
    'kbd',
    'q',
    'samp',
    'var',
    'hr',
    'ruby',
    'rt',
    'rp',
    'li',
    'tr',
    'td',
    'th',
    's',
    'strike',
    'summary',
    'details',
    'caption',
    'figure',
    'figcaption',
    'abbr',
    'bdo',
    'cite',
    'dfn',
    'mark',
    'small',
    'span',
    'time',
    'wbr',
    'picture',
    'source',
    'input',
  ]
  const ALLOWED_ATTR = [
    'href',
    'src',
    'longdesc',
    'cite',
    'abbr',
    'align',
    'alt',
    'aria-describedby',
    'aria-hidden',
    'aria-label',
    'aria-labelledby',
    'border',
    'cellpadding',
    'cellspacing',
    'checked',
    'colspan',
    'datetime',
    'dir',
    'disabled',
    'headers',
    'height',
    'hreflang',
    'lang',
    'name',
    'open',
    'rel',
    'role',
    'rowspan',
    'scope',
    'start',
    'summary',
    'title',
    'type',
    'valign',
    'width',
    'itemprop',
    'srcset',
    'media',
  ]
  // http(s), mailto, fragments and relative URLs; never javascript:, data: or vbscript:.
  const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:|#|\/|\.{1,2}\/|[^:]*$)/i

  const ALERT_ICONS = {
    note: 'M0 8a8 8 0 1 1 16 0A8 8 0 0 1 0 8Zm8-6.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13ZM6.5 7.75A.75.75 0 0 1 7.25 7h1a.75.75 0 0 1 .75.75v2.75h.25a.75.75 0 0 1 0 1.5h-2a.75.75 0 0 1 0-1.5h.25v-2h-.25a.75.75 0 0 1-.75-.75ZM8 6a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z',
    tip: 'M8 1.5c-2.363 0-4 1.69-4 3.75 0 .984.424 1.625.984 2.304l.214.253c.223.264.47.556.673.848.284.411.537.896.621 1.49a.75.75 0 0 1-1.484.211c-.04-.282-.163-.547-.37-.847a8.456 8.456 0 0 0-.542-.68c-.084-.1-.173-.205-.268-.32C3.201 7.75 2.5 6.766 2.5 5.25 2.5 2.31 4.863 0 8 0s5.5 2.31 5.5 5.25c0 1.516-.701 2.5-1.328 3.259-.095.115-.184.22-.268.319-.207.245-.383.453-.541.681-.208.3-.33.565-.37.847a.751.751 0 0 1-1.485-.212c.084-.593.337-1.078.621-1.489.203-.292.45-.584.673-.848.075-.088.147-.173.213-.253.561-.679.985-1.32.985-2.304 0-2.06-1.637-3.75-4-3.75ZM5.75 12h4.5a.75.75 0 0 1 0 1.5h-4.5a.75.75 0 0 1 0-1.5ZM6 15.25a.75.75 0 0 1 .75-.75h2.5a.75.75 0 0 1 0 1.5h-2.5a.75.75 0 0 1-.75-.75Z',
    important:
      'M0 1.75C0 .784.784 0 1.75 0h12.5C15.216 0 16 .784 16 1.75v9.5A1.75 1.75 0 0 1 14.25 13H8.06l-2.573 2.573A1.458 1.458 0 0 1 3 14.543V13H1.75A1.75 1.75 0 0 1 0 11.25Zm1.75-.25a.25.25 0 0 0-.25.25v9.5c0 .138.112.25.25.25h2a.75.75 0 0 1 .75.75v2.19l2.72-2.72a.749.749 0 0 1 .53-.22h6.5a.25.25 0 0 0 .25-.25v-9.5a.25.25 0 0 0-.25-.25Zm7 2.25v2.5a.75.75 0 0 1-1.5 0v-2.5a.75.75 0 0 1 1.5 0ZM9 9a1 1 0 1 1-2 0 1 1 0 0 1 2 0Z',
    warning:
      'M6.457 1.047c.659-1.234 2.427-1.234 3.086 0l6.082 11.378A1.75 1.75 0 0 1 14.082 15H1.918a1.75 1.75 0 0 1-1.543-2.575Zm1.763.707a.25.25 0 0 0-.44 0L1.698 13.132a.25.25 0 0 0 .22.368h12.164a.25.25 0 0 0 .22-.368Zm.53 3.996v2.5a.75.75 0 0 1-1.5 0v-2.5a.75.75 0 0 1 1.5 0ZM9 11a1 1 0 1 1-2 0 1 1 0 0 1 2 0Z',
    caution:
      'M4.47.22A.749.749 0 0 1 5 0h6c.199 0 .389.079.53.22l4.25 4.25c.141.14.22.331.22.53v6a.749.749 0 0 1-.22.53l-4.25 4.25A.749.749 0 0 1 11 16H5a.749.749 0 0 1-.53-.22L.22 11.53A.749.749 0 0 1 0 11V5c0-.199.079-.389.22-.53Zm.84 1.28L1.5 5.31v5.38l3.81 3.81h5.38l3.81-3.81V5.31L10.69 1.5ZM8 4a.75.75 0 0 1 .75.75v3.5a.75.75 0 0 1-1.5 0v-3.5A.75.75 0 0 1 8 4Zm0 8a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z',
  }

  const article = document.querySelector('article.markdown-body')
  const source = JSON.parse(document.getElementById('markdown-html').textContent)
  const settings = JSON.parse(document.getElementById('render-settings').textContent)

  function sanitize() {
    const removed = []
    DOMPurify.addHook('uponSanitizeElement', (node, data) => {
      if (node.nodeType === Node.ELEMENT_NODE && data.tagName !== 'body' && !data.allowedTags[data.tagName])
        removed.push(`<${data.tagName}>`)
    })
    DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
      if (!data.keepAttr || !ALLOWED_ATTR.includes(data.attrName))
        removed.push(`${node.nodeName.toLowerCase()}[${data.attrName}]`)
    })
    article.innerHTML = DOMPurify.sanitize(source, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOWED_URI_REGEXP,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
    })
    for (const input of article.querySelectorAll('input')) {
      if (input.type !== 'checkbox') input.remove()
      else input.disabled = true
    }
    // GitHub opens external links in the same tab but never lets them drive this page.
    for (const a of article.querySelectorAll('a[href]')) a.rel = 'nofollow'
    return removed
  }

  function alerts() {
    for (const quote of article.querySelectorAll('blockquote')) {
      const p = quote.firstElementChild
      const first = p && p.tagName === 'P' ? p.firstChild : null
      if (!first || first.nodeType !== Node.TEXT_NODE) continue
      const match = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(\n|$)/i.exec(first.data)
      if (!match) continue
      // The marker must be alone on the quote's first line.
      if (
        !match[2] &&
        first.data.length === match[0].length &&
        first.nextSibling &&
        first.nextSibling.nodeName !== 'BR'
      )
        continue
      first.data = first.data.slice(match[0].length)
      if (!match[2] && first.nextSibling && first.nextSibling.nodeName === 'BR') first.nextSibling.remove()
      if (!p.textContent.trim() && !p.querySelector('img')) p.remove()
      const type = match[1].toLowerCase()
      const alert = document.createElement('div')
      alert.className = `markdown-alert markdown-alert-${type}`
      const title = document.createElement('p')
      title.className = 'markdown-alert-title'
      title.innerHTML = `<svg class="octicon octicon-${type} mr-2" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="${ALERT_ICONS[type]}"></path></svg>`
      title.append(type[0].toUpperCase() + type.slice(1))
      alert.append(title, ...quote.childNodes)
      quote.replaceWith(alert)
    }
  }

  function taskLists() {
    for (const box of article.querySelectorAll('li > input[type="checkbox"]:first-child')) {
      box.classList.add('task-list-item-checkbox')
      box.parentElement.classList.add('task-list-item')
      box.parentElement.parentElement.classList.add('contains-task-list')
    }
  }

  async function diagrams() {
    const blocks = []
    for (const pre of article.querySelectorAll('pre[lang="mermaid"]')) {
      const text = pre.textContent
      const frame = document.createElement('section')
      frame.className = 'mermaid-frame'
      const target = document.createElement('pre')
      target.className = 'mermaid'
      target.textContent = text
      frame.append(target)
      pre.replaceWith(frame)
      blocks.push({ node: target, text })
    }
    const errors = []
    if (blocks.length === 0) return { blocks: 0, errors }
    // Diagrams inside closed <details> would be measured at size zero: lay them out open.
    const closed = blocks.flatMap(({ node }) => ancestors(node, 'DETAILS').filter((d) => !d.open))
    for (const details of closed) details.open = true
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' })
    for (const [index, block] of blocks.entries()) {
      try {
        await mermaid.parse(block.text)
      } catch (error) {
        errors.push(`diagram ${index + 1}: ${firstLines(error)}`)
      }
    }
    try {
      await mermaid.run({ nodes: blocks.map((block) => block.node), suppressErrors: false })
    } catch (error) {
      if (errors.length === 0) errors.push(`mermaid.run: ${firstLines(error)}`)
    }
    for (const [index, { node }] of blocks.entries()) {
      const svg = node.querySelector('svg')
      if (!svg) errors.push(`diagram ${index + 1}: no SVG was drawn`)
      else if (svg.querySelector('.error-icon') || /Syntax error/i.test(svg.textContent || ''))
        errors.push(`diagram ${index + 1}: Mermaid drew its syntax-error picture`)
    }
    if (!settings.openDetails) for (const details of closed) details.open = false
    return { blocks: blocks.length, errors }
  }

  function ancestors(node, tagName) {
    const found = []
    for (let at = node.parentElement; at; at = at.parentElement) if (at.tagName === tagName) found.push(at)
    return found
  }

  function firstLines(error) {
    const message = error && error.message ? error.message : String(error)
    return message.split('\n').slice(0, 4).join(' ⏎ ')
  }

  function openAllDetails() {
    for (const details of article.querySelectorAll('details')) details.open = true
  }

  const ready = (async () => {
    const removed = sanitize()
    alerts()
    taskLists()
    if (settings.openDetails) openAllDetails()
    const mermaidReport = await diagrams()
    await document.fonts.ready
    return { removed, mermaid: mermaidReport }
  })()

  window.githubMarkdown = { ready, openAllDetails }
})()
