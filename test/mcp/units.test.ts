import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { clientConfigSnippet, shellQuote } from '../../src/main/mcp/client-config'
import { zodFromJsonSchema, zodObjectFromJsonSchema } from '../../src/main/mcp/json-schema-to-zod'
import { isPendingProposalId, proposalId } from '../../src/main/review/pending-proposals'
import { SKILL_TOOL_SCHEMAS } from '../../src/main/tools/schemas'

describe('JSON Schema → zod', () => {
  it('round-trips every skill tool schema through zod with the same JSON Schema', () => {
    for (const s of SKILL_TOOL_SCHEMAS) {
      const json = z.toJSONSchema(zodObjectFromJsonSchema(s.function.parameters)) as Record<string, unknown>
      delete json.$schema
      expect(json, s.function.name).toEqual(s.function.parameters)
    }
  })
  it('validates like the schema says', () => {
    const rate = zodObjectFromJsonSchema(SKILL_TOOL_SCHEMAS.find((s) => s.function.name === 'rate_skill')!.function.parameters)
    expect(rate.safeParse({ skill_id: '1', rating: 0.4 }).success).toBe(true)
    expect(rate.safeParse({ skill_id: '1', rating: 5 }).success).toBe(false)
    expect(rate.safeParse({ skill_id: '1' }).success).toBe(false)
    expect(rate.safeParse({ skill_id: '1', rating: 1, extra: true }).success).toBe(false)
    expect(rate.safeParse({ skill_id: 1, rating: 1 }).success).toBe(false)
  })
  it('refuses JSON Schema it does not understand instead of accepting anything', () => {
    expect(() => zodFromJsonSchema({ type: 'frobnicate' })).toThrow(/unsupported/)
    expect(() => zodFromJsonSchema({ type: ['string', 'number'] })).toThrow(/union/)
    expect(() => zodObjectFromJsonSchema({ type: 'object', properties: {}, required: ['x'] })).toThrow(/no schema/)
    expect(zodFromJsonSchema({ type: ['string', 'null'] }).safeParse(null).success).toBe(true)
  })
})

describe('proposal ids', () => {
  it('are filename-safe, sortable by time and recognised', () => {
    const id = proposalId('edit', '1768615161', new Date('2026-01-17T09:59:21.686Z'))
    expect(id).toMatch(/^edit-1768615161-20260117T095921Z-[0-9a-f]{6}$/)
    expect(isPendingProposalId(id)).toBe(true)
    expect(isPendingProposalId('../edit-1-20260117T095921Z-abcdef')).toBe(false)
    expect(isPendingProposalId('merge-1-20260117T095921Z-abcdef')).toBe(false)
  })
})

describe('client configuration lines', () => {
  const launch = { command: 'node', args: ['/opt/skill bench/bin/skillbench.mjs', 'mcp', '--library', "/data/it's/experience"] }
  it('claude mcp add quotes paths for the shell', () => {
    expect(clientConfigSnippet('claude', launch)).toBe(
      `claude mcp add --transport stdio skillbench -- node '/opt/skill bench/bin/skillbench.mjs' mcp --library '/data/it'\\''s/experience'\n`
    )
    expect(shellQuote('/plain/path-1.0')).toBe('/plain/path-1.0')
  })
  it('.mcp.json, Cursor and Codex snippets carry the exact command and args', () => {
    expect(JSON.parse(clientConfigSnippet('mcp-json', launch))).toEqual({ mcpServers: { skillbench: { type: 'stdio', ...launch } } })
    expect(JSON.parse(clientConfigSnippet('cursor', launch))).toEqual({ mcpServers: { skillbench: launch } })
    const toml = clientConfigSnippet('codex', launch)
    expect(toml.split('\n')[0]).toBe('[mcp_servers.skillbench]')
    // TOML basic strings use JSON-compatible escapes for these characters
    const args = JSON.parse(toml.split('\n')[2]!.replace(/^args = /, '')) as string[]
    expect(args).toEqual(launch.args)
  })
})
