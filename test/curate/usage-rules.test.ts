/**
 * Curation with real usage (issue 14): cleanup spares what agents used inside its window whatever fetch_count
 * says, and a skill whose tasks went wrong more often than the baseline gets a "review" proposal carrying the
 * failing tasks; the rules stay deterministic; a review applies only a person's edit.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SkillRef, TaskTrace, UsageReport } from '../../src/shared/types'
import { acceptProposal, undoApplied } from '../../src/main/review/decisions'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { applyEditsTo } from '../../src/main/review/queue'
import { buildUsageReport } from '../../src/main/usage/report'
import { makeLibrary } from './fixtures'

const NOW = new Date('2026-11-23T12:00:00Z')
const DAY = 86_400_000
const OLD = '2026-09-01T10:00:00.000000'
let dirs: string[] = []
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  dirs = []
})

let n = 0
/** A Codex task that read skill ID's file `daysAgo` days before NOW (AGIAgent skills are matched by file name). */
function task(opts: { reads?: string; daysAgo: number; failed?: boolean }): { trace: TaskTrace; origin: string } {
  const at = NOW.getTime() - opts.daysAgo * DAY
  const refs: SkillRef[] = opts.reads ? [{ kind: 'read', path: `/elsewhere/experience/skill_${opts.reads}.md`, errorsAfter: opts.failed ? 1 : 0, at }] : []
  const trace: TaskTrace = {
    source: 'codex', user: '', taskDir: `rollout-x#${++n}`, path: '/s/rollout-x.jsonl', mtime: at, startedAt: at, status: opts.failed ? 'incomplete' : 'completed', completed: !opts.failed,
    requirements: ['do it'], toolCalls: [], errors: opts.failed ? ['exit 1: pytest'] : [], interruptions: 0, agentMessages: [], files: [], ...(refs.length ? { skillRefs: refs } : {})
  }
  return { trace, origin: '/s' }
}

async function plan(usage: (skills: Awaited<ReturnType<typeof listActive>>) => UsageReport | undefined) {
  const dir = makeLibrary([
    { id: '1700000001', title: 'Loaded last week', body: 'Steps for A.', created: OLD },
    { id: '1700000002', title: 'Last used long ago', body: 'Steps for B about deploying.', created: OLD },
    { id: '1700000003', title: 'Never used', body: 'Steps for C about spreadsheets.', created: OLD },
    { id: '1700000004', title: 'Misleading steps', body: 'Run the tests with pytest -x and ignore failures.', created: OLD, fetch: 3 }
  ])
  dirs.push(dir)
  const opened = await openForCuration(dir)
  const skills = await listActive(opened)
  const saved = await curateLibrary(opened, { now: NOW, usage: usage(skills) })
  return { dir, opened, saved }
}
async function listActive(opened: Awaited<ReturnType<typeof openForCuration>>) {
  return (await opened.library.list()).skills.filter((s) => !s.legacy)
}

function reportFor(skills: Awaited<ReturnType<typeof listActive>>): UsageReport {
  n = 0
  const tasks = [
    task({ reads: '1700000001', daysAgo: 7 }),
    task({ reads: '1700000002', daysAgo: 45 }),
    // the misleading skill: 4 of 6 tasks failed after reading it
    ...Array.from({ length: 4 }, (_, i) => task({ reads: '1700000004', daysAgo: 3 + i, failed: true })),
    ...Array.from({ length: 2 }, (_, i) => task({ reads: '1700000004', daysAgo: 10 + i })),
    // the baseline: 10 tasks without a library skill, 1 failed
    ...Array.from({ length: 9 }, (_, i) => task({ daysAgo: 2 + i })),
    task({ daysAgo: 1, failed: true })
  ]
  return buildUsageReport({ skills, root: '/lib', tasks, ledger: [], now: NOW })
}

describe('curation with real usage', () => {
  it('without usage, cleanup goes by fetch_count alone (as upstream)', async () => {
    const { saved } = await plan(() => undefined)
    expect(saved.proposals.filter((p) => p.kind === 'cleanup').map((p) => p.members[0]!.title).sort()).toEqual(['Last used long ago', 'Loaded last week', 'Never used'])
    expect(saved.proposals.filter((p) => p.kind === 'review')).toEqual([])
  })

  it('a skill an agent loaded last week, or once since it arrived, is not "unused" because fetch_count is 0; the card says what watched which days', async () => {
    const { saved } = await plan(reportFor)
    const cleanups = saved.proposals.filter((p) => p.kind === 'cleanup')
    // "Last used long ago" was read by a Codex task 45 days ago, after it arrived: used, so kept (issue 36)
    expect(cleanups.map((p) => p.members[0]!.title).sort()).toEqual(['Never used'])
    const c = cleanups[0]!
    expect(c.evidence).toMatchObject({ fetch_count: 0, usage_checked: true, uses: 0, last_use: null, observed_from: '2026-09-01T10:00:00.000Z', observed_days: 83 })
    expect(c.evidence.observed_by).toEqual([
      { kind: 'fetch_count', dir: '', from: '2026-09-01T10:00:00.000Z' },
      { kind: 'codex', dir: '/s', from: new Date(NOW.getTime() - 45 * DAY).toISOString() }
    ])
    expect(c.reason).toBe(
      "not used by any agent in the 83 days watched since it arrived on 2026-09-01 (at least 30 needed); watched by fetch_count kept by the agents' query_skill since 2026-09-01; Codex sessions in /s since 2026-10-09; moves to the legacy folder (restorable)"
    )
  })

  it('a skill whose tasks went wrong more often than the baseline gets a review with the failing tasks attached', async () => {
    const { saved } = await plan(reportFor)
    const reviews = saved.proposals.filter((p) => p.kind === 'review')
    expect(reviews).toHaveLength(1)
    const r = reviews[0]!
    expect(r.members.map((m) => m.title)).toEqual(['Misleading steps'])
    expect(r.evidence).toMatchObject({ tasks: 6, failed: 4, went_wrong: 4, baseline: { tasks: 10, failed: 1 }, min_uses: 5, margin: 0.2 })
    const failing = r.evidence.failing_tasks as { outcome: string; error: string; source: string }[]
    expect(failing).toHaveLength(4)
    expect(failing.every((t) => t.outcome === 'failed' && t.error === 'exit 1: pytest' && t.source === 'codex')).toBe(true)
    expect(r.reason).toMatch(/^4 of the 6 tasks that used it went wrong afterwards \(4 failed, 0 corrected by the user: 67%\), against 1 of 10 \(10%\)/)
    // the skill itself, unchanged: the reviewer edits it in the diff view
    expect(r.changes).toHaveLength(1)
    expect(r.changes[0]!.before).toBe(r.changes[0]!.after)
  })

  it('is deterministic: the same library and usage give the same plan and ids', async () => {
    const a = await plan(reportFor)
    const b = await plan(reportFor)
    expect(b.saved.proposals).toEqual(a.saved.proposals)
  })

  it('a review applies only an edit: accepted as it is it is refused with a clear message; edited it applies and undoes', async () => {
    const { dir, opened, saved } = await plan(reportFor)
    const review = saved.proposals.find((p) => p.kind === 'review')!
    await expect(acceptProposal(opened.root, review.id, 'user')).rejects.toThrow(/asks for a review: edit the skill/)
    const file = path.join(dir, review.changes[0]!.path)
    const before = fs.readFileSync(file, 'utf8')
    const planFile = path.join(dir, '.skillbench', 'plan.json')
    const stored = JSON.parse(fs.readFileSync(planFile, 'utf8')) as { proposals: typeof saved.proposals }
    const p = stored.proposals.find((x) => x.id === review.id)!
    applyEditsTo(p, [{ path: p.changes[0]!.path, before: p.changes[0]!.before, after: before.replace('and ignore failures', 'and stop at the first failure') }])
    fs.writeFileSync(planFile, JSON.stringify(stored))
    await acceptProposal(opened.root, review.id, 'user')
    expect(fs.readFileSync(file, 'utf8')).toMatch(/stop at the first failure/)
    await undoApplied(opened.root, review.id, 'user')
    expect(fs.readFileSync(file, 'utf8')).toBe(before)
  })
})
