/** The environments picture's page (environments.ts): what the hub names cannot become markup or a script link. */
import { describe, expect, it } from 'vitest'
import { environmentsPage } from './environments.ts'

describe('environmentsPage', () => {
  it('the environments page escapes every recorded value and links only http(s) log URLs', () => {
    const hostile = '<img src=x onerror=alert(1)>'
    const page = environmentsPage('acme/shop', [
      {
        ref: 'abc1234567',
        environment: `production/${hostile}`,
        description: hostile,
        statuses: [{ state: '"><script>', description: hostile, log_url: 'javascript:alert(1)' }],
      },
    ])
    expect(page).not.toContain(hostile)
    expect(page).not.toContain('"><script>')
    expect(page).toContain('production/&lt;img src=x onerror=alert(1)&gt;')
    expect(page).not.toContain('javascript:')
    expect(page).not.toContain('View logs')
  })
})
