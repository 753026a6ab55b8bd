import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TaskTrace } from '../../src/shared/types'
import { parseSkillMd, validateSkillMd } from '../../src/main/formats/skill-md'
import { validatePath } from '../../src/main/formats/validate'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { runReflection } from '../../src/main/reflect/run-reflection'
import { scanSessions } from '../../src/main/scan/sessions'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { calculatorTrace } from './fixtures'
import { listFiles } from './make-root'

const tmp = (name: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `sb-${name}-`))

/** A Claude Code task that did work, asked in Chinese. */
function chineseSessionTask(): TaskTrace {
  return {
    ...calculatorTrace(),
    source: 'claude',
    taskDir: 'zh-session#1',
    path: '/x/zh-session.jsonl',
    requirements: ['用Python写一个快速排序，并附带单元测试'],
    files: []
  }
}

describe('reflecting into a SKILL.md library (issue 36)', () => {
  it('writes <name>/SKILL.md folders that pass the Agent Skills rules; bookkeeping only under .skillbench/', async () => {
    const skills = tmp('claude-skills')
    fs.mkdirSync(path.join(skills, 'pdf'))
    fs.writeFileSync(path.join(skills, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: Read PDFs. Use when a PDF is given.\n---\n\n# PDF\n')
    const traces = [{ ...calculatorTrace(), source: 'claude' as const, taskDir: 'calc#1', path: '/x/calc.jsonl' }, chineseSessionTask()]
    const summary = await runReflection({ rootDir: skills, library: skills, traces }, defaultReflectionDeps())
    expect(summary.failed).toEqual([])
    const created = summary.created.map((c) => path.relative(skills, c.path)).sort()
    // the Chinese title reads in pinyin, not skill-<id> or python-2
    expect(created).toEqual(['write-a-small-python-command-line-calculator/SKILL.md', 'yong-python-xie-yi-ge-kuai-su-pai-xu-bing-fu-dai-dan-yuan-ce-shi/SKILL.md'])
    for (const rel of created) {
      const record = parseSkillMd(fs.readFileSync(path.join(skills, rel), 'utf8'))
      expect(validateSkillMd(record, { dirName: path.dirname(rel) })).toEqual([])
      const description = record.frontMatter.description as string
      expect(description.length).toBeLessThanOrEqual(1024)
      expect(description).toMatch(/(Use when asked to|当需要完成类似任务时使用)/) // says when
    }
    // nothing an agent would load by mistake: no legacy/, codes/ or logs/ beside the skills
    const top = fs.readdirSync(skills).sort()
    expect(top.filter((n) => !['index.json'].includes(n))).toEqual(['.skillbench', 'pdf', ...created.map((c) => path.dirname(c))].sort())
    expect(listFiles(path.join(skills, '.skillbench')).some((f) => /^logs\/task_reflection_\d{8}\.log$/.test(f))).toBe(true)
    expect(listFiles(skills).filter((f) => /(^|\/)skill_[^/]*\.md$/.test(f))).toEqual([])
    expect((await validatePath(skills)).errors).toBe(0)
  })

  it('a task titled like a bookkeeping folder ("Logs") gets another name, never the logs/ folder', async () => {
    const skills = tmp('claude-skills-reserved')
    const traces = [{ ...calculatorTrace(), source: 'claude' as const, taskDir: 'logs#1', path: '/x/logs.jsonl', requirements: ['Logs'] }]
    const summary = await runReflection({ rootDir: skills, library: skills, traces }, defaultReflectionDeps())
    expect(summary.failed).toEqual([])
    const created = summary.created.map((c) => path.relative(skills, c.path))
    expect(created).toHaveLength(1)
    expect(created[0]).not.toMatch(/^(logs|codes|legacy)\//)
    expect(fs.existsSync(path.join(skills, 'logs'))).toBe(false)
  })

  it('an AGIAgent data root keeps skill_*.md files', async () => {
    const root = tmp('agi-root')
    const summary = await runReflection({ rootDir: root, traces: [calculatorTrace()] }, defaultReflectionDeps())
    expect(path.basename(summary.created[0]!.path)).toMatch(/^skill_.*\.md$/)
  })

  it('validate reports a skill_*.md file inside a SKILL.md library', async () => {
    const skills = tmp('mixed')
    fs.mkdirSync(path.join(skills, 'pdf'))
    fs.writeFileSync(path.join(skills, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: Read PDFs. Use when a PDF is given.\n---\n\n# PDF\n')
    fs.writeFileSync(
      path.join(skills, 'skill_Calc.md'),
      "---\nskill_id: '1700000000'\ntitle: Calc\nusage_conditions: calc\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00.000000'\nupdated_at: '2026-01-01T00:00:00.000000'\nlast_used_at: null\nuser_preferences: ''\n---\n\n# Calc\n"
    )
    const report = await validatePath(skills)
    const agi = report.files.find((f) => f.path === 'skill_Calc.md')!
    expect(agi.ok).toBe(false)
    expect(agi.problems.map((p) => p.message).join('\n')).toMatch(/never load it/)
    expect(report.errors).toBe(1)
  })
})

describe.skipIf(!HAS_REAL_DATA)('real sessions reflected into a SKILL.md library', () => {
  it('the real Claude Code sessions make valid, readable SKILL.md folders', async () => {
    const skills = tmp('real-claude-skills')
    fs.mkdirSync(path.join(skills, 'pdf'))
    fs.writeFileSync(path.join(skills, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: Read PDFs. Use when a PDF is given.\n---\n\n# PDF\n')
    const { tasks } = await scanSessions({ source: 'claude', dir: realPath('sessions', 'claude_code') })
    const summary = await runReflection({ rootDir: skills, library: skills, traces: tasks }, defaultReflectionDeps())
    expect(summary.failed).toEqual([])
    expect(summary.created.length).toBeGreaterThan(0)
    for (const c of summary.created) {
      const rel = path.relative(skills, c.path)
      expect(rel).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\/SKILL\.md$/)
      expect(validateSkillMd(parseSkillMd(fs.readFileSync(c.path, 'utf8')), { dirName: path.dirname(rel) })).toEqual([])
    }
    expect((await validatePath(skills)).errors).toBe(0)
  })
})
