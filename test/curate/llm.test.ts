import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import { acceptProposal } from '../../src/main/review/decisions'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { chatCompletion, startOpenAiServer, type Handler, type OpenAiTestServer } from '../helpers/openai-server'
import { DEPLOY, DEPLOY_NEAR, makeLibrary, snapshot, SORTING, SORTING_COPY, type FixtureSkill } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
// mergeThreshold 0.95 turns both similar pairs into consolidation clusters the model is asked about.
const SETTINGS = { mergeThreshold: 0.95 }
const skills: FixtureSkill[] = [
  { id: '1001', title: 'Sorting arrays', body: SORTING, quality: 0.6, fetch: 2, created: '2026-11-01T00:00:00' },
  { id: '1002', title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, fetch: 1, created: '2026-11-02T00:00:00' },
  { id: '1003', title: 'Deploy with compose', body: DEPLOY, created: '2026-11-01T00:00:00', fetch: 1 },
  { id: '1004', title: 'Compose deployment checklist', body: DEPLOY_NEAR, created: '2026-11-01T00:00:00', fetch: 1 }
]

let server: OpenAiTestServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function planWith(handler: Handler): Promise<{ dir: string; root: string; plan: Awaited<ReturnType<typeof curateLibrary>> }> {
  server = await startOpenAiServer(handler)
  const llm = createOpenAiClient({ baseUrl: server.url, model: 'curator-1', apiKey: 'test-key', maxRetries: 0, timeoutMs: 5000 })
  const dir = makeLibrary(skills)
  const opened = await openForCuration(dir)
  const plan = await curateLibrary(opened, { now: NOW, llm, settings: SETTINGS })
  return { dir, root: opened.root, plan }
}

/** Which cluster a request is about: the sorting one mentions skill 1001. */
const isSorting = (body: unknown): boolean => JSON.stringify(body).includes('skill_id: 1001')

describe('LLM consolidation against a local OpenAI-protocol server', () => {
  it('plain-text MERGE: yes becomes a proposal with the model\'s title, conditions and body; MERGE: no makes none', async () => {
    const { dir, root, plan } = await planWith((req) =>
      isSorting(req.body)
        ? { json: chatCompletion('merge: YES\nREASON: same topic\nTITLE: Sorting in TypeScript\nUSAGE_CONDITIONS: when sorting arrays\nCONTENT:\n# Sorting\n\nOne merged body.\n', [], 'curator-1') }
        : { json: chatCompletion('MERGE: no\nREASON: different enough', [], 'curator-1') }
    )
    expect(server!.requests).toHaveLength(2)
    expect(JSON.stringify(server!.requests[0]!.body)).toContain('edit_skill')
    expect(plan.errors).toEqual([])
    expect(plan.proposals).toHaveLength(1)
    const p = plan.proposals[0]!
    expect(p).toMatchObject({ kind: 'consolidate', author: 'curator-1' })
    expect(p.members.map((m) => m.skill_id)).toEqual(['1001', '1002'])
    const primary = p.changes[0]!
    expect(primary.path).toBe('skill_1001.md')
    expect(primary.after).toContain('title: Sorting in TypeScript')
    expect(primary.after).toContain('usage_conditions: when sorting arrays')
    expect(primary.after).toMatch(/---\n\n# Sorting\n\nOne merged body\.\n$/)
    await acceptProposal(root, p.id, 'alice')
    expect(snapshot(dir)['legacy/skill_1002.md']).toBeDefined()
  })

  it('tool calls edit_skill + delete_skill become a proposal', async () => {
    const { plan } = await planWith((req) =>
      isSorting(req.body)
        ? { json: chatCompletion(null, [{ name: 'edit_skill', arguments: { skill_id: '1002', edit_mode: 'full_replace', code_edit: '# Merged\n' } }, { name: 'delete_skill', arguments: { skill_id: '1001' } }]) }
        : { json: chatCompletion('MERGE: no') }
    )
    expect(plan.errors).toEqual([])
    expect(plan.proposals).toHaveLength(1)
    const p = plan.proposals[0]!
    expect(p.members[0]!.skill_id).toBe('1002')
    expect(p.changes.map((c) => c.path)).toEqual(['skill_1002.md', 'skill_1001.md', 'legacy/skill_1001.md'])
    expect(p.changes[0]!.after).toMatch(/# Merged\n$/)
  })

  it('malformed text and tool calls on unknown skills make no proposal, a clear error, and change nothing', async () => {
    const { dir, plan } = await planWith((req) =>
      isSorting(req.body)
        ? { json: chatCompletion('These look alike, I would probably combine them.') }
        : { json: chatCompletion(null, [{ name: 'delete_skill', arguments: { skill_id: '424242' } }]) }
    )
    expect(plan.proposals).toEqual([])
    expect(plan.errors).toHaveLength(2)
    expect(plan.errors.map((e) => e.reason).join('\n')).toMatch(/no "MERGE: yes\|no" line/)
    expect(plan.errors.map((e) => e.reason).join('\n')).toMatch(/"424242", which is not in this cluster/)
    expect(Object.keys(snapshot(dir)).sort()).toEqual(['skill_1001.md', 'skill_1002.md', 'skill_1003.md', 'skill_1004.md'])
  })

  it('a failing model is an error for that cluster, not a crash', async () => {
    const { plan } = await planWith(() => ({ status: 400, json: { error: { message: 'bad request' } } }))
    expect(plan.proposals).toEqual([])
    expect(plan.errors).toHaveLength(2)
    expect(plan.errors[0]!.reason).toMatch(/model request failed/)
  })
})
