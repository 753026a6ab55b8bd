/** The report's rules (pure): outcomes, the per-source baseline, the verdicts and their thresholds. */
import { describe, expect, it } from 'vitest'
import type { Skill, SkillRef, TaskTrace } from '../../src/shared/types'
import { buildUsageReport, FAIL_MARGIN, MIN_BASELINE, MIN_USES, taskOutcome, verdictOf } from '../../src/main/usage/report'

function skill(name: string, id: string): Skill {
  return {
    skill_id: id, title: name, usage_conditions: '', quality_index: 0.5, fetch_count: 0, related_code: '', task_directories: [], created_at: '2026-01-01T00:00:00',
    updated_at: '2026-01-01T00:00:00', last_used_at: null, user_preferences: '', format: 'skill-md', path: `skills/${name}/SKILL.md`, name, body: '', hash: '', legacy: false
  }
}

let n = 0
function trace(over: Partial<TaskTrace> & { uses?: string[]; failed?: boolean }): TaskTrace {
  const { uses = [], failed = false, ...rest } = over
  const refs: SkillRef[] = uses.map((name) => ({ kind: 'skill-tool', name, errorsAfter: failed ? 1 : 0, at: Date.parse('2026-11-10T10:00:00Z') + n }))
  return {
    source: 'claude', user: '', taskDir: `s#${++n}`, path: '/s.jsonl', mtime: Date.parse('2026-11-10T10:00:00Z'), startedAt: Date.parse('2026-11-10T10:00:00Z') + n,
    status: failed ? 'incomplete' : 'completed', completed: !failed, requirements: ['r'], toolCalls: [], errors: failed ? ['boom'] : [], interruptions: 0,
    agentMessages: [], files: [], ...(refs.length ? { skillRefs: refs } : {}), ...rest
  }
}

const many = (k: number, make: () => TaskTrace): TaskTrace[] => Array.from({ length: k }, make)

describe('task outcomes', () => {
  const base = { completed: false, status: 'incomplete' as const, interruptions: 0, errors: [] as string[] }
  it('interrupted by the user first, then corrected, then completed, then failed (errors after the use, no completion)', () => {
    expect(taskOutcome({ ...base, status: 'interrupted', interruptions: 1, correctedBy: 'wrong' })).toBe('interrupted')
    expect(taskOutcome({ ...base, completed: true, status: 'completed', correctedBy: "that's wrong" })).toBe('corrected')
    expect(taskOutcome({ ...base, completed: true, status: 'completed', errors: ['e'] })).toBe('completed')
    expect(taskOutcome({ ...base, errors: ['e'] }, { errorsAfter: 1 })).toBe('failed')
    // errors only before the skill was used: not a failure of the task that used it
    expect(taskOutcome({ ...base, errors: ['e'] }, { errorsAfter: 0 })).toBe('incomplete')
    // a baseline task: any error and no completion
    expect(taskOutcome({ ...base, errors: ['e'] })).toBe('failed')
  })
})

describe('verdicts', () => {
  const b = (tasks: number, failed: number) => ({ tasks, completed: tasks - failed, failed, interrupted: 0, corrected: 0 })
  const u = (uses: number, failed: number, corrected = 0) => ({ uses, completed: uses - failed - corrected, failed, interrupted: 0, corrected, incomplete: 0 })
  it(`judges only from ${MIN_USES} uses and ${MIN_BASELINE} baseline tasks`, () => {
    expect(verdictOf(u(0, 0), b(50, 5))).toBe('unused')
    expect(verdictOf(u(MIN_USES - 1, MIN_USES - 1), b(50, 0))).toBe('too-few')
    expect(verdictOf(u(MIN_USES, 3), b(MIN_BASELINE - 1, 0))).toBe('no-baseline')
  })
  it(`"fails more" = at least 2 tasks and ${FAIL_MARGIN * 100} points above the baseline (failed or corrected)`, () => {
    expect(verdictOf(u(6, 3), b(20, 2))).toBe('fails-more') // 50% vs 10%
    expect(verdictOf(u(6, 1, 1), b(20, 2))).toBe('fails-more') // 33% vs 10%
    expect(verdictOf(u(6, 2), b(20, 4))).toBe('as-baseline') // 33% vs 20%: within the margin
    expect(verdictOf(u(20, 1), b(20, 0))).toBe('as-baseline') // one failure is never enough
  })
})

describe('buildUsageReport', () => {
  const bad = skill('bad-skill', '1')
  const good = skill('good-skill', '2')
  it('compares each skill with tasks of its own sources that used no library skill, and is deterministic', () => {
    const tasks = [
      ...many(6, () => trace({ uses: ['bad-skill'], failed: true })).slice(0, 4),
      ...many(2, () => trace({ uses: ['bad-skill'] })),
      ...many(6, () => trace({ uses: ['good-skill'] })),
      ...many(9, () => trace({})),
      trace({ failed: true }),
      // another source's failures do not count against a Claude-only skill
      ...many(10, () => trace({ source: 'codex', failed: true }))
    ].map((t) => ({ trace: t, origin: '/x' }))
    const input = { skills: [bad, good], root: '/lib', tasks, ledger: [], now: new Date('2026-11-23T00:00:00Z') }
    const report = buildUsageReport(input)
    const [badU, goodU] = report.skills
    expect(badU).toMatchObject({ uses: 6, failed: 4, completed: 2, verdict: 'fails-more' })
    expect(badU!.baseline).toEqual({ tasks: 10, completed: 9, failed: 1, interrupted: 0, corrected: 0 })
    expect(goodU).toMatchObject({ uses: 6, failed: 0, verdict: 'as-baseline' })
    expect(report.baseline).toEqual({ tasks: 20, completed: 9, failed: 11, interrupted: 0, corrected: 0 })
    expect(buildUsageReport(input)).toEqual(report)
  })

  it('a task using two skills counts for both; one use per task however often it read the file', () => {
    const t = trace({ uses: ['bad-skill', 'good-skill', 'bad-skill'] })
    const report = buildUsageReport({ skills: [bad, good], root: '/lib', tasks: [{ trace: t, origin: '/x' }], ledger: [], now: new Date() })
    expect(report.skills.map((s) => s.uses)).toEqual([1, 1])
    expect(report.skills[0]!.tasks[0]!.how).toEqual(['skill-tool'])
  })
})
