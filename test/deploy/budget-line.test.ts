/**
 * The over-budget sentence (walk 54, finding 15): with a few skills to disable it names them all and gives the
 * `skillbench disable` command; with more than SUGGEST_NAMED it names the first ones, says how many more, and
 * suggests a profile instead of a command of a thousand names. The CLI says it once (not again as a warning).
 */
import { describe, expect, it } from 'vitest'
import type { DeployBudget, DeployResult, DeployTargetInfo } from '../../src/shared/api-deploy'
import { budgetMessage, SUGGEST_NAMED } from '../../src/main/deploy/run'
import { formatDeploy } from '../../src/main/cli/commands/deploy'

const target: DeployTargetInfo = { spec: 'codex', agent: 'codex', label: 'Codex', dir: '/h/.codex/skills', exists: true, budget: 8000 }

function over(n: number): DeployBudget {
  const suggest = Array.from({ length: n }, (_, i) => ({ name: `skill-${String(i + 1).padStart(4, '0')}`, title: `Skill ${i + 1}`, chars: 70, uses: i < 2 ? 0 : 1, last_used_at: null }))
  return { chars: 8000 + n * 70, ours: 8000 + n * 70, others: 0, limit: 8000, percent: 200, level: 'over', suggest }
}

describe('the over-budget sentence', () => {
  it('a few to disable: every name and the disable command', () => {
    const line = budgetMessage(target, over(3))
    expect(line).toContain('Least used first, disabling skill-0001 (0 uses, 70 chars), skill-0002 (0 uses, 70 chars), skill-0003 (1 use, 70 chars) gets it under: skillbench disable skill-0001 skill-0002 skill-0003 --to codex')
    expect(budgetMessage(target, over(SUGGEST_NAMED))).toContain(`skillbench disable skill-0001 skill-0002 skill-0003 skill-0004 skill-0005 skill-0006 skill-0007 skill-0008 skill-0009 skill-0010 --to codex`)
  })

  it('1,400 to disable: the first ten, how many more, and a profile instead of a 30 KB command', () => {
    const line = budgetMessage(target, over(1400))
    expect(SUGGEST_NAMED).toBe(10)
    expect(line.length).toBeLessThan(900)
    expect(line).toContain('Getting under it takes disabling 1400 skills, least used first: skill-0001 (0 uses, 70 chars), skill-0002 (0 uses, 70 chars), skill-0003 (1 use, 70 chars)')
    expect(line).toContain('skill-0010 (1 use, 70 chars) and 1390 more (--json lists them all)')
    expect(line).not.toContain('skill-0011')
    expect(line).toContain('Rather than disabling that many, deploy only what this agent needs with a profile: skillbench profile set NAME --to codex --skill tag:TAG|collection:NAME|SKILL…, then skillbench deploy --profile NAME')
    expect(line).not.toContain('skillbench disable')
  })

  it('the CLI says it once', () => {
    const budget = over(1400)
    const r: DeployResult = { target, dryRun: true, skills: [], counts: { written: 0, updated: 0, removed: 0, unchanged: 0, drifted: 0, left: 0 }, budget, journal_id: null, proposals: [], warnings: [budgetMessage(target, budget), 'another warning'] }
    const text = formatDeploy(r)
    expect(text.split('\n').filter((l) => l.includes('over the budget'))).toHaveLength(1)
    expect(text).toContain('⚠️  another warning')
  })
})
