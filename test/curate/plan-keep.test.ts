import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Proposal } from '../../src/shared/types'
import { savePendingProposal } from '../../src/main/reflect/decide-io'
import { acceptProposal, rejectProposal } from '../../src/main/review/decisions'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { loadPlan } from '../../src/main/review/plan'
import { makeLibrary, pairedSkills, skillFileText } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const skills = pairedSkills('100')

/** An enhancement proposal as reflection writes it: adds a note to one skill file. */
function enhance(dir: string, id: string, task: string): Proposal {
  const file = 'skill_1003.md'
  const before = fs.readFileSync(path.join(dir, file), 'utf8')
  return {
    id,
    kind: 'enhance',
    members: [{ skill_id: '1003', title: 'Deploy with compose', path: file }],
    score: 0.8,
    reason: 'a later task learned more',
    evidence: { task },
    changes: [{ path: file, before, after: `${before}\n- check the health endpoint after ${task}\n` }],
    author: 'offline'
  }
}

describe('recomputing the plan keeps other producers’ pending proposals', () => {
  it('replaces only merge/consolidate/cleanup and keeps pending enhance proposals, and rejected ones as rejected', async () => {
    const dir = makeLibrary(skills)
    const opened = await openForCuration(dir)
    const first = await curateLibrary(opened, { now: NOW })
    expect(first.proposals.map((p) => p.kind).sort()).toEqual(['cleanup', 'merge', 'merge'])

    expect(await savePendingProposal(opened.root, enhance(dir, 'e-keep', 'task-a'))).toBe('added')
    expect(await savePendingProposal(opened.root, enhance(dir, 'e-rejected', 'task-b'))).toBe('added')
    await rejectProposal(opened.root, 'e-rejected')

    const second = await curateLibrary(opened, { now: NOW })
    // The returned plan is the curation result; the saved one also holds the pending enhancement.
    expect(second.proposals.every((p) => ['merge', 'consolidate', 'cleanup'].includes(p.kind))).toBe(true)
    const saved = await loadPlan(opened.root)
    // the rejected one is kept as rejected (6981052): curation never computes it again, and its rejection stays undoable
    expect(saved.proposals.map((p) => p.id).sort()).toEqual([...second.proposals.map((p) => p.id), 'e-keep', 'e-rejected'].sort())
    expect(saved.proposals.find((p) => p.id === 'e-rejected')!.status).toBe('rejected')
    const kept = saved.proposals.find((p) => p.id === 'e-keep')!
    expect(kept.kind).toBe('enhance')
    expect(kept.evidence.task).toBe('task-a')
    expect(kept.changes).toEqual(enhance(dir, 'e-keep', 'task-a').changes)
    // No duplicate curation proposals from the first plan.
    expect(new Set(saved.proposals.map((p) => p.id)).size).toBe(saved.proposals.length)

    // The kept proposal can still be accepted after the recompute.
    await acceptProposal(opened.root, 'e-keep', 'alice')
    expect(fs.readFileSync(path.join(dir, 'skill_1003.md'), 'utf8')).toContain('check the health endpoint after task-a')
  })

  it('drops an enhancement once it is applied (the journal has it) and keeps working without a plan', async () => {
    const dir = makeLibrary(skills.slice(0, 2))
    const opened = await openForCuration(dir)
    // No plan yet: reflection creates one, curation then adds its proposals next to it.
    const e = enhance(makeLibrary([skills[2]!]), 'e-one', 'task-c')
    fs.writeFileSync(path.join(dir, 'skill_1003.md'), skillFileText(skills[2]!))
    e.changes[0]!.before = fs.readFileSync(path.join(dir, 'skill_1003.md'), 'utf8')
    e.changes[0]!.after = `${e.changes[0]!.before}\nmore\n`
    await savePendingProposal(opened.root, e)
    const plan = await curateLibrary(opened, { now: NOW })
    let saved = await loadPlan(opened.root)
    expect(saved.proposals.map((p) => p.id)).toEqual([...plan.proposals.map((p) => p.id), 'e-one'])

    await acceptProposal(opened.root, 'e-one', 'alice')
    await curateLibrary(opened, { now: NOW })
    saved = await loadPlan(opened.root)
    expect(saved.proposals.some((p) => p.id === 'e-one')).toBe(false)
  })
})
