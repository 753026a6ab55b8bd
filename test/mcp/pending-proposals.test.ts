import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openForCuration } from '../../src/main/curate/service'
import { editProposal, listPendingProposals, PENDING_DIR, savePendingProposal } from '../../src/main/mcp/pending-proposals'
import { makeLibrary, SORTING } from '../curate/fixtures'

describe('pending agent proposals', () => {
  it('never replaces another proposal: one whose id is taken gets a fresh suffix, also when saved at once', async () => {
    const dir = makeLibrary([{ id: '1001', title: 'Sorting arrays', body: SORTING }])
    const root = fs.realpathSync(dir)
    const skill = (await openForCuration(dir)).listing!.skills[0]!
    const text = fs.readFileSync(path.join(root, skill.path), 'utf8')
    const now = new Date('2026-11-27T12:00:00Z')
    const propose = (line: string) =>
      editProposal(skill, text, `${text}\n${line}\n`, { tool: 'edit_skill', args: { skill_id: '1001', edit_mode: 'append' }, base_hash: skill.hash }, now)
    const first = propose('first')
    const second = { ...propose('second'), id: first.id }
    const third = { ...propose('third'), id: first.id }
    expect(await savePendingProposal(root, first)).toBe(`${PENDING_DIR}/${first.id}.json`)
    const [rel2, rel3] = await Promise.all([savePendingProposal(root, second), savePendingProposal(root, third)])
    expect(new Set([first.id, second.id, third.id]).size).toBe(3)
    for (const p of [second, third]) expect(p.id.slice(0, -6)).toBe(first.id.slice(0, -6))
    expect([rel2, rel3]).toEqual([`${PENDING_DIR}/${second.id}.json`, `${PENDING_DIR}/${third.id}.json`])
    const { proposals, errors } = await listPendingProposals(root)
    expect(errors).toEqual([])
    const afterOf = new Map(proposals.map((p) => [p.id, p.changes[0]!.after]))
    expect(afterOf.get(first.id)).toContain('\nfirst\n')
    expect(afterOf.get(second.id)).toContain('\nsecond\n')
    expect(afterOf.get(third.id)).toContain('\nthird\n')
  })
})
