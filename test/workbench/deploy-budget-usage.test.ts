/**
 * The Deploy screen's budget suggestions (issue 38): over the budget, what to disable comes least used first from
 * the app's usage index (agents' session logs, the ledger), not from the skill files' own counts: the two skills
 * no agent used are named first, though every skill file says it was never fetched.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DeployResult } from '../../src/shared/api-deploy'
import type { SkillListResult } from '../../src/shared/api'
import { benchesDisposedAfterEach, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()

describe('deploy budget suggestions in the app', () => {
  it('name the least used first from the usage index', async () => {
    const home = tempDir('home')
    try {
      const b = await bench({ env: { ...process.env, SKILLBENCH_HOME: home, CODEX_HOME: path.join(home, 'codex') } })
      const library = path.join(b.root, 'alice', 'general', 'experience')
      for (let i = 0; i < 30; i++) {
        const name = `long-${String(i).padStart(2, '0')}`
        fs.mkdirSync(path.join(library, name), { recursive: true })
        // every file says fetch_count 0 (the library's own count): only the usage index tells them apart
        fs.writeFileSync(path.join(library, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${'Describes a long procedure in words. '.repeat(8)}${i}\n---\n\n# ${name}\n\nSteps.\n`)
      }
      const listed = await b.call<SkillListResult>('skills.list', { library })
      const ids = new Map(listed.skills.filter((s) => s.path.startsWith('long-')).map((s) => [s.path.split('/')[0]!, s.skill_id]))
      expect(ids.size).toBe(30)
      expect(listed.skills.filter((s) => s.path.startsWith('long-')).every((s) => s.fetch_count === 0)).toBe(true)
      // a Claude Code session used every one of them through the Skill tool, except long-07 and long-21
      const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/u/proj', sessionId: 's1', version: '2.1.7' }
      const lines: unknown[] = []
      let n = 0
      for (const name of [...ids.keys()].filter((x) => x !== 'long-07' && x !== 'long-21')) {
        const at = (s: number): string => new Date(Date.UTC(2026, 10, 10, 9, n, s)).toISOString()
        const id = `c${n++}`
        lines.push({ ...base, type: 'user', uuid: `u${id}`, timestamp: at(0), message: { role: 'user', content: `Do the ${name} procedure` } })
        lines.push({ ...base, type: 'assistant', uuid: `a${id}`, timestamp: at(5), message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Skill', input: { skill: name } }] } })
        lines.push({ ...base, type: 'user', uuid: `r${id}`, timestamp: at(6), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `Launching skill: ${name}`, is_error: false }] } })
        lines.push({ ...base, type: 'assistant', uuid: `t${id}`, timestamp: at(30), message: { id: `t-${id}`, role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } })
      }
      const sessions = path.join(home, '.claude', 'projects', '-home-u-proj')
      fs.mkdirSync(sessions, { recursive: true })
      fs.writeFileSync(path.join(sessions, 'session-usage.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n')

      const r = await b.call<DeployResult>('deploy.preview', { library, to: 'codex' })
      expect(r.budget.level).toBe('over')
      expect(r.budget.suggest!.slice(0, 2).map((s) => [s.name, s.uses])).toEqual([
        ['long-21', 0],
        ['long-07', 0]
      ])
      expect(r.budget.suggest!.slice(2).every((s) => s.uses >= 1 || !s.name.startsWith('long-'))).toBe(true)
      expect(fs.existsSync(path.join(home, 'codex', 'skills'))).toBe(false) // a preview writes nothing
    } finally {
      fs.rmSync(home, { recursive: true, force: true })
    }
  })
})
