import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findBoilerplateLines, stripBoilerplate } from '../../src/main/text/boilerplate'

/** The rule written out plainly: normalised lines (trim, whitespace runs → one space, lowercase) with a letter/digit, in ≥ threshold docs. */
function reference(docs: string[], minDocs = 5, minRatio = 0.02): { lines: Set<string>; stripped: string[] } {
  const norm = (l: string): string => l.trim().replace(/\s+/g, ' ').toLowerCase()
  const threshold = Math.max(minDocs, Math.ceil(minRatio * docs.length))
  const df = new Map<string, number>()
  for (const doc of docs) {
    for (const line of new Set(doc.split('\n').map(norm))) if (/[\p{L}\p{N}]/u.test(line)) df.set(line, (df.get(line) ?? 0) + 1)
  }
  const lines = new Set([...df].filter(([, n]) => n >= threshold).map(([l]) => l))
  return { lines, stripped: docs.map((d) => d.split('\n').filter((l) => !lines.has(norm(l))).join('\n')) }
}

describe('boilerplate lines', () => {
  it('finds and strips exactly the lines the plain rule gives, whatever the whitespace, case or script', () => {
    const line = fc.constantFrom(
      'Rube MCP must be connected', '  rube   MCP must be CONNECTED ', 'Rube\tMCP must be connected', '## Workflow', '## workflow',
      '---', '', '   ', '- call the tool', 'Use Zoho Desk', 'Use Docker Hub', '使用 MCP 工具', '使用  MCP 工具 ', 'Ünïcode Line', 'ünïcode line',
      'K\u212a elvin', 'kk elvin', 'a\u00a0b', 'a b', '```', 'x1', 'X1'
    )
    const doc = fc.array(line, { maxLength: 8 }).map((ls) => ls.join('\n'))
    fc.assert(
      fc.property(fc.array(doc, { minLength: 0, maxLength: 30 }), fc.integer({ min: 1, max: 6 }), (docs, minDocs) => {
        const want = reference(docs, minDocs)
        expect(findBoilerplateLines(docs, { minDocs })).toEqual(want.lines)
        expect(stripBoilerplate(docs, { minDocs })).toEqual(want.stripped)
      }),
      { numRuns: 300 }
    )
  })

  it('leaves a templated family with only its distinguishing lines', () => {
    const template = (service: string): string =>
      ['# ' + service + ' automation', 'Rube MCP must be connected before use.', '## Workflow', '- Search the tools first', `- Call ${service} tools`].join('\n')
    const services = ['zoho', 'docker', 'slack', 'github', 'notion', 'jira']
    const stripped = stripBoilerplate(services.map(template))
    expect(stripped[0]).toBe('# zoho automation\n- Call zoho tools')
    expect(stripBoilerplate(['only one doc'])).toEqual(['only one doc'])
  })
})
