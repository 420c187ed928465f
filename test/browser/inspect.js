// Runs inside the page after page.js: `window.githubMarkdown.inspect()` reports what a reader
// sees — tables, markdown that leaked as text, words split over two lines, the visible text folded
// and unfolded — for screenshots.test.ts to judge. Plain browser JavaScript, served as is.
;(function () {
  'use strict'

  const article = document.querySelector('article.markdown-body')

  /**
   * What a reader sees: tables, markdown that leaked as text, the visible text (`text`) and the
   * text once every `<details>` is opened (`unfoldedText`). Diagrams are measured unfolded (a
   * folded one has no size), then the page is folded back as it was.
   */
  function inspect() {
    const folded = [...article.querySelectorAll('details')].filter((details) => !details.open)
    const text = article.innerText
    for (const details of folded) details.open = true
    try {
      return { ...inspectUnfolded(), text, unfoldedText: article.innerText }
    } finally {
      for (const details of folded) details.open = false
    }
  }

  function inspectUnfolded() {
    const tables = [...article.querySelectorAll('table')].map((table) => {
      const rows = [...table.rows]
      const before = table.previousElementSibling
      return {
        // The line just above the table, e.g. "Upstream — what it depends on (6)".
        above: before ? before.textContent.trim() : '',
        bodyRows: table.tBodies[0] ? table.tBodies[0].rows.length : 0,
        header: [...(table.tHead ? table.tHead.rows[0].cells : rows[0].cells)].map((cell) => cell.textContent.trim()),
        cellsPerRow: rows.map((row) => [...row.cells].reduce((n, cell) => n + (cell.colSpan || 1), 0)),
        emptyHeaders: [...table.querySelectorAll('th')].filter((th) => !th.textContent.trim()).length,
        // Columns whose body cells all say the same thing (on two rows or more).
        uniformColumns: uniformColumns(table),
      }
    })
    // Text a reader sees outside code: markdown syntax here means something did not render.
    const leaks = []
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || parent.closest('pre, code, svg, .mermaid-frame')) continue
      const block = parent.closest('p, li, td, th, h1, h2, h3, h4, h5, h6, summary, dd, dt') || parent
      const lines = new Set([...(block.innerText || '').split('\n'), ...(block.textContent || '').split('\n')])
      for (const line of lines) {
        const text = line.trim()
        if (!text) continue
        if (/^\|.*\|$/.test(text) || /\|\s*:?-{3,}:?\s*\|/.test(text)) leaks.push(`table row shown as text: ${text}`)
        if (/&(?:[a-z]+|#\d+|#x[0-9a-f]+);/i.test(text)) leaks.push(`HTML entity shown as text: ${text}`)
        if (/\\[\\`*_{}[\]()#+\-.!|<>~]/.test(text)) leaks.push(`markdown escape shown as text: ${text}`)
        if (/```|~~~/.test(text)) leaks.push(`code fence shown as text: ${text}`)
        if (/\*\*|__/.test(text)) leaks.push(`emphasis markers shown as text: ${text}`)
        if (/<\/?(?:details|summary|br|table|div|p|sub|sup)\b[^>]*>/i.test(text))
          leaks.push(`HTML tag shown as text: ${text}`)
      }
    }
    return {
      tables,
      leaks: [...new Set(leaks)],
      details: article.querySelectorAll('details').length,
      detailsWithoutSummary: [...article.querySelectorAll('details')].filter(
        (d) => !d.querySelector(':scope > summary'),
      ).length,
      diagrams: [...article.querySelectorAll('.mermaid-frame svg')].map((svg) => ({
        nodes: svg.querySelectorAll('.node').length,
        edges: svg.querySelectorAll('.edgePaths path, path.flowchart-link').length,
        dottedEdges: svg.querySelectorAll(
          '.edgePaths path.edge-pattern-dotted, path.flowchart-link.edge-pattern-dotted',
        ).length,
        labels: [...svg.querySelectorAll('.nodeLabel')].map((label) => label.textContent.trim()),
        width: svg.getBoundingClientRect().width,
        height: svg.getBoundingClientRect().height,
      })),
      alerts: [...article.querySelectorAll('.markdown-alert')].map((alert) =>
        alert.className.replace('markdown-alert ', ''),
      ),
      brokenWords: brokenWords(),
    }
  }

  function uniformColumns(table) {
    const body = table.tBodies[0] ? [...table.tBodies[0].rows] : []
    const header = table.tHead ? [...table.tHead.rows[0].cells] : []
    if (body.length < 2) return []
    return header
      .map((th, index) => ({
        header: th.textContent.trim(),
        values: new Set(body.map((row) => (row.cells[index] ? row.cells[index].textContent.trim() : ''))),
      }))
      .filter((column) => column.values.size === 1)
      .map((column) => ({ header: column.header, value: [...column.values][0] }))
  }

  /**
   * Words (runs without a space) in table cells and diagram labels that the layout split over
   * two lines — at a hyphen or mid-letter — as "cell: word". Each word's boxes are measured
   * with a Range: more than one line top means it was broken.
   */
  function brokenWords() {
    const broken = []
    for (const container of article.querySelectorAll('td, th, .mermaid-frame .nodeLabel')) {
      const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.data.matchAll(/\S+/g)) {
          const range = document.createRange()
          range.setStart(node, match.index)
          range.setEnd(node, match.index + match[0].length)
          const tops = new Set(
            [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
          )
          if (tops.size > 1)
            broken.push(
              `${container.tagName === 'TD' || container.tagName === 'TH' ? 'table cell' : 'diagram label'}: ${match[0]}`,
            )
        }
      }
    }
    return [...new Set(broken)]
  }

  window.githubMarkdown.inspect = inspect
})()
