import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { JobInfo, LibraryInfo, SkillDocument, SkillListResult } from '../../src/shared/api'
import type { CurationPlan, JournalEntry, Proposal } from '../../src/shared/types'
import { editProposal, savePendingProposal as saveAgentProposal } from '../../src/main/review/pending-proposals'
import { savePendingProposal as savePlanProposal } from '../../src/main/reflect/decide-io'
import { enhanceProposal } from '../../src/main/reflect/decide'
import { proposeMemory } from '../../src/main/review/memory-proposals'
import { coded } from '../../src/shared/error-codes'
import { countWaiting, mergeQueues, pendingStatus, proposalsToKeep } from '../../src/main/review/queue'
import { openTestBench, type TestBench } from './helpers'

const benches: TestBench[] = []
afterEach(async () => {
  await Promise.all(benches.splice(0).map((b) => b.wb.dispose()))
})

type Plan = CurationPlan & { library: string; computedAt: string | null }

/** Alice's library with one agent edit proposal (pending folder) and one reflection enhance proposal (plan.json). */
async function withQueuedProposals(): Promise<{ b: TestBench; lib: string; editId: string; enhanceId: string; skillPath: string; original: string }> {
  const b = await openTestBench()
  benches.push(b)
  const lib = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
  const list = await b.call<SkillListResult>('skills.list', { library: lib })
  const [first, second] = list.skills
  const doc = await b.call<SkillDocument>('skills.get', { library: lib, skillId: first!.skill_id })
  const edited = doc.text.replace(/\n*$/, '\n\nAdded by an agent.\n')
  const edit = editProposal(doc.skill, doc.text, edited, { tool: 'edit_skill', args: { skill_id: first!.skill_id, edit_mode: 'replace' }, base_hash: doc.skill.hash, client: 'claude-code' })
  await saveAgentProposal(lib, edit)
  const doc2 = await b.call<SkillDocument>('skills.get', { library: lib, skillId: second!.skill_id })
  const enhance = enhanceProposal({
    skill: doc2.skill,
    raw: doc2.text,
    enhancement: { skill: { ...doc2.skill, content: doc2.skill.body, similarity_score: 0.42 } as never, newBody: `${doc2.skill.body}\n\n## More from output_x\n- Pitfall: retry later\n`, changes: ['Added pitfall: retry later'] },
    taskDir: 'output_x',
    author: 'offline',
    now: new Date('2026-11-05T00:00:00Z')
  })
  await savePlanProposal(lib, enhance)
  return { b, lib, editId: edit.id, enhanceId: enhance.id, skillPath: path.join(lib, doc.skill.path), original: doc.text }
}

describe('review queue: agent and reflection proposals in the Curate screen', () => {
  it('lists plan.json enhance proposals and pending agent proposals together, with who proposed them', async () => {
    const { b, lib, editId, enhanceId } = await withQueuedProposals()
    const plan = await b.call<Plan>('curate.plan', { library: lib })
    const byId = new Map(plan.proposals.map((p) => [p.id, p]))
    expect(byId.get(editId)).toMatchObject({ kind: 'edit', status: 'pending', author: 'mcp:claude-code' })
    expect(byId.get(enhanceId)).toMatchObject({ kind: 'enhance', status: 'pending', author: 'offline' })
    // reflection alone does not count as a computed curation plan
    expect(plan.computedAt).toBeNull()
    const overview = await b.call<{ pendingProposals: number }>('overview.get', { library: lib })
    expect(overview.pendingProposals).toBe(2)
  })

  it('recomputing the curation plan keeps pending enhance and agent proposals', async () => {
    const { b, lib, editId, enhanceId } = await withQueuedProposals()
    const job = await b.call<JobInfo>('curate.start', { library: lib })
    await b.wb.waitForJob(job.jobId)
    const plan = await b.call<Plan>('curate.plan', { library: lib })
    expect(plan.computedAt).not.toBeNull()
    const ids = plan.proposals.map((p) => p.id)
    expect(ids).toContain(editId)
    expect(ids).toContain(enhanceId)
    const onDisk = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: Proposal[] }
    expect(onDisk.proposals.some((p) => p.id === enhanceId)).toBe(true)
  })

  it('edit-then-accept of an agent proposal applies the edited text, journals it, and undo brings the file back', async () => {
    const { b, lib, editId, skillPath, original } = await withQueuedProposals()
    const plan = await b.call<Plan>('curate.plan', { library: lib })
    const proposal = plan.proposals.find((p) => p.id === editId)!
    const mine = original.replace(/\n*$/, '\n\nReviewed and reworded by me.\n')
    const entry = await b.call<JournalEntry>('curate.accept', { library: lib, proposalId: editId, edited: [{ ...proposal.changes[0]!, after: mine }] })
    expect(entry.proposal_id).toBe(editId)
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(mine)
    let after = await b.call<Plan>('curate.plan', { library: lib })
    expect(after.proposals.find((p) => p.id === editId)).toMatchObject({ status: 'applied', author: 'mcp:claude-code + user edit' })
    const journal = await b.call<JournalEntry[]>('curate.journal', { library: lib })
    expect(journal[0]!.proposal_id).toBe(editId)
    await b.call('curate.undo', { library: lib, entryId: journal[0]!.id })
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(original)
    after = await b.call<Plan>('curate.plan', { library: lib })
    expect(after.proposals.find((p) => p.id === editId)!.status).toBe('undone')
    // undone, it is back for review as the Curate screen shows it: the Overview counts it with the enhance still pending
    const overview = await b.call<{ pendingProposals: number }>('overview.get', { library: lib })
    expect(overview.pendingProposals).toBe(2)
    expect(await countWaiting(lib)).toBe(2)
  })

  it('rejects each kind through its own back end; the library does not change', async () => {
    const { b, lib, editId, enhanceId, skillPath, original } = await withQueuedProposals()
    await b.call('curate.reject', { library: lib, proposalId: editId })
    await b.call('curate.reject', { library: lib, proposalId: enhanceId })
    const plan = await b.call<Plan>('curate.plan', { library: lib })
    expect(plan.proposals.filter((p) => p.id === editId || p.id === enhanceId).map((p) => p.status)).toEqual(['rejected', 'rejected'])
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(original)
    const agentFile = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'pending', `${editId}.json`), 'utf8')) as Proposal
    expect(agentFile.status).toBe('rejected')
    // when and by whom, as a plan proposal's rejection says it (the Curate screen's Recently rejected shows it)
    expect(agentFile.rejected).toEqual({ at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), by: 'user' })
    expect(plan.proposals.find((p) => p.id === editId)!.rejected).toEqual(agentFile.rejected)
    const err = await b.call('curate.reject', { library: lib, proposalId: 'edit-1-20260101T000000Z-abcdef' }).catch((e: { code: string }) => e)
    expect((err as { code: string }).code).toBe('not_found')
  })

  it('undoes a rejection of each kind through its own back end (curate.unreject); History lists no entry for it; a changed skill refuses it', async () => {
    const { b, lib, editId, enhanceId, skillPath, original } = await withQueuedProposals()
    await b.call('curate.reject', { library: lib, proposalId: editId })
    await b.call('curate.reject', { library: lib, proposalId: enhanceId })
    expect(await b.call<Proposal>('curate.unreject', { library: lib, proposalId: editId })).toMatchObject({ id: editId, status: 'pending' })
    expect(await b.call<Proposal>('curate.unreject', { library: lib, proposalId: enhanceId })).toMatchObject({ id: enhanceId, status: 'pending' })
    const plan = await b.call<Plan>('curate.plan', { library: lib })
    expect(plan.proposals.filter((p) => p.id === editId || p.id === enhanceId).map((p) => p.status)).toEqual(['pending', 'pending'])
    expect((JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'pending', `${editId}.json`), 'utf8')) as Proposal).status).toBe('pending')
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(original)
    expect(await b.call<JournalEntry[]>('curate.journal', { library: lib })).toEqual([])
    // the agent's edit, rejected again, cannot come back once its skill changed
    await b.call('curate.reject', { library: lib, proposalId: editId })
    fs.appendFileSync(skillPath, '\nChanged by hand.\n')
    const err = await b.wb.dispatch('curate.unreject', { library: lib, proposalId: editId })
    expect(err).toMatchObject({ ok: false, error: { code: 'conflict', messageCode: 'review.unreject_changed' } })
    const again = await b.call<Plan>('curate.plan', { library: lib })
    expect(again.proposals.find((p) => p.id === editId)!.status).toBe('rejected')
    expect(await b.wb.dispatch('curate.unreject', { library: lib, proposalId: enhanceId })).toMatchObject({ ok: false, error: { messageCode: 'review.not_rejected' } })
  })

  it('accepts a reflection enhance proposal from the plan', async () => {
    const { b, lib, enhanceId } = await withQueuedProposals()
    const entry = await b.call<JournalEntry>('curate.accept', { library: lib, proposalId: enhanceId })
    expect(entry.kind).toBe('enhance')
    const changed = entry.changes[0]!
    expect(fs.readFileSync(path.join(lib, changed.path), 'utf8')).toContain('Pitfall: retry later')
  })
})

describe('review queue: a rejection outlives a recomputed plan', () => {
  it('keeps a rejected enhance or memory proposal when curation computes the plan again, so its rejection can still be undone', async () => {
    const { b, lib, enhanceId } = await withQueuedProposals()
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-rq-ws-')))
    fs.mkdirSync(path.join(ws, 'memory'))
    fs.writeFileSync(path.join(ws, 'memory', 'lessons.md'), '# Lessons\n\n- Keep answers short.\n')
    try {
      const { proposed } = await proposeMemory(lib, [{ workspace: ws, target: 'lessons', entries: ['Check the allowlist first'], source: 'critic', reason: coded('memory.reason_agent', { tool: 'add_lesson' }), author: 'offline' }])
      const memoryId = proposed[0]!.id
      await b.call('curate.reject', { library: lib, proposalId: enhanceId })
      await b.call('curate.reject', { library: lib, proposalId: memoryId })
      const recompute = async (): Promise<Map<string, Proposal>> => {
        const job = await b.call<JobInfo>('curate.start', { library: lib })
        await b.wb.waitForJob(job.jobId)
        const plan = await b.call<Plan>('curate.plan', { library: lib })
        expect(plan.computedAt).not.toBeNull()
        return new Map(plan.proposals.map((p) => [p.id, p]))
      }
      let byId = await recompute()
      for (const id of [enhanceId, memoryId]) {
        expect(byId.get(id), id).toMatchObject({ status: 'rejected', rejected: { by: 'user' } })
      }
      // the memory entry is still refused by its rejection record (memory.evolve does not propose it again)
      const again = await proposeMemory(lib, [{ workspace: ws, target: 'lessons', entries: ['Check the allowlist first'], source: 'critic', reason: coded('memory.reason_agent', { tool: 'add_lesson' }), author: 'offline' }])
      expect(again.skipped.map((x) => x.reason)).toEqual(['rejected'])
      // and each rejection is undone through the contract, as the Curate screen does it
      expect(await b.call<Proposal>('curate.unreject', { library: lib, proposalId: enhanceId })).toMatchObject({ id: enhanceId, status: 'pending' })
      expect(await b.call<Proposal>('curate.unreject', { library: lib, proposalId: memoryId })).toMatchObject({ id: memoryId, status: 'pending' })
      byId = await recompute()
      expect([byId.get(enhanceId)?.status, byId.get(memoryId)?.status]).toEqual(['pending', 'pending'])
    } finally {
      fs.rmSync(ws, { recursive: true, force: true })
    }
  })
})

describe('review queue: pure parts', () => {
  const p = (id: string, kind: Proposal['kind'], status?: Proposal['status']): Proposal => ({ id, kind, members: [], score: 1, reason: '', evidence: {}, changes: [], status })

  it('keeps pending and rejected non-curation proposals across a recompute', () => {
    const kept = proposalsToKeep({ proposals: [p('m', 'merge'), p('e1', 'enhance'), p('e2', 'enhance', 'rejected'), p('e3', 'enhance', 'applied'), p('c', 'cleanup'), p('r', 'merge', 'rejected')] })
    expect(kept.map((x) => x.id)).toEqual(['e1', 'e2'])
  })

  it('derives an agent proposal status from the journal and merges without duplicates', () => {
    const records = [
      { id: 'r1', action: 'apply', proposal_id: 'a', kind: 'edit', at: '', by: 'user', changes: [], ops: [] },
      { id: 'r2', action: 'apply', proposal_id: 'b', kind: 'edit', at: '', by: 'user', changes: [], ops: [] },
      { id: 'r3', action: 'undo', undoes: 'r2', proposal_id: 'b', kind: 'edit', at: '', by: 'user', changes: [], ops: [] }
    ] as never[]
    expect(pendingStatus(p('a', 'edit', 'pending'), records)).toBe('applied')
    expect(pendingStatus(p('b', 'edit', 'applied'), records)).toBe('undone')
    expect(pendingStatus(p('c', 'delete', 'rejected'), records)).toBe('rejected')
    expect(pendingStatus(p('d', 'delete', 'pending'), records)).toBe('pending')
    const merged = mergeQueues({ skills_loaded: 1, proposals: [p('x', 'merge')], errors: [] }, [p('x', 'merge'), p('y', 'edit')])
    expect(merged.proposals.map((q) => q.id)).toEqual(['x', 'y'])
  })
})
