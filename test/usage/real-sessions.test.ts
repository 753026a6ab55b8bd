/**
 * The usage index on the real public transcripts (../shared/data/real/sessions), read in place. They list the
 * skills an agent could use (Codex's developer message names ~40 SKILL.md files; a Claude Glob result lists
 * SKILL.md paths) but mostly do not use them: only the Codex agent's own `sed -n`/`cat` of a SKILL.md is a use.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanRoot } from '../../src/main/scan/scan-root'
import { scanSessions } from '../../src/main/scan/sessions'
import { openLibrary } from '../../src/main/store/library'
import { collectUsage } from '../../src/main/usage/service'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

const CODEX = (): string => realPath('sessions', 'codex_cli')
const CLAUDE = (): string => realPath('sessions', 'claude_code')

describe.skipIf(!HAS_REAL_DATA)('real transcripts: uses and no false uses', () => {
  it('Claude Code: 23 tasks, none uses a skill (a skills list in the prompt, a Glob listing SKILL.md files are not uses)', async () => {
    const r = await scanSessions({ source: 'claude', dir: CLAUDE() })
    expect(r.tasks).toHaveLength(23)
    expect(r.tasks.flatMap((t) => t.skillRefs ?? [])).toEqual([])
  })

  it('Codex: exactly the SKILL.md files the agent printed itself, at their lines', async () => {
    const r = await scanSessions({ source: 'codex', dir: CODEX() })
    const uses = r.tasks.flatMap((t) => (t.skillRefs ?? []).map((ref) => `${t.taskDir.slice(0, 27)} ${ref.kind} ${ref.name} line ${ref.line}`))
    expect(uses.sort()).toEqual(
      [
        'rollout-2026-05-11T11-26-55 read using-superpowers line 9',
        'rollout-2026-05-11T11-26-55 read brainstorming line 27',
        'rollout-2026-05-11T11-26-55 read test-driven-development line 27',
        'rollout-2026-05-11T13-28-45 read using-superpowers line 4',
        'rollout-2026-05-11T13-28-45 read browser line 35',
        'rollout-2026-05-11T13-28-45 read brainstorming line 36',
        'rollout-2026-05-11T13-28-45 read browser line 40'
      ].sort()
    )
    // the developer message (line 3) lists every available skill's SKILL.md: none of those counts
    expect(r.tasks.flatMap((t) => t.skillRefs ?? []).some((ref) => ref.line === 3)).toBe(false)
  })

  it('against obra/superpowers: the three skills read are used, the other eleven are not; the baseline is the rest', async () => {
    const lib = await openLibrary(realPath('skills', 'obra_superpowers'))
    const skills = (await lib.list()).skills
    const report = await collectUsage({
      root: lib.root,
      skills,
      sources: [
        { kind: 'claude', dir: CLAUDE() },
        { kind: 'codex', dir: CODEX() }
      ]
    })
    const used = Object.fromEntries(report.skills.filter((s) => s.uses > 0).map((s) => [s.name, s.uses]))
    expect(used).toEqual({ 'using-superpowers': 2, brainstorming: 2, 'test-driven-development': 1 })
    expect(report.skills.filter((s) => s.uses === 0)).toHaveLength(skills.length - 3)
    for (const s of report.skills.filter((x) => x.uses > 0)) {
      expect(s.tasks.every((t) => t.source === 'codex' && t.outcome === 'completed')).toBe(true)
      expect(s.verdict).toBe('too-few')
    }
    // 23 Claude tasks and the one Codex task that read no skill of this library
    expect(report.baseline.tasks).toBe(24)
  })

  it('against the 860 Composio skills and the Anthropic ones: no use at all (none of them was read)', async () => {
    for (const corpus of ['composiohq_awesome-claude-skills', 'anthropics_skills']) {
      const lib = await openLibrary(realPath('skills', corpus))
      const report = await collectUsage({
        root: lib.root,
        skills: (await lib.list()).skills,
        sources: [
          { kind: 'claude', dir: CLAUDE() },
          { kind: 'codex', dir: CODEX() }
        ]
      })
      expect(report.skills.filter((s) => s.uses > 0).map((s) => s.name)).toEqual([])
    }
  })

  it('AGIAgent real data roots: no query_skill, no skill file read, so no use', async () => {
    for (const root of [realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example'), path.dirname(realPath('agiagent', 'hzqjgthy_AGIAgent_thy', 'output_thy_test_project33'))]) {
      const r = await scanRoot({ rootDir: root })
      expect(r.tasks.length).toBeGreaterThan(0)
      expect(r.tasks.flatMap((t) => t.skillRefs ?? [])).toEqual([])
    }
  })
})
