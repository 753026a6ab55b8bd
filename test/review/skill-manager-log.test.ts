/**
 * Curation's log (seed row 000): accepting a proposal appends upstream skill_manager.py's
 * `%(asctime)s - %(levelname)s - %(message)s` lines to `logs/skill_manager_YYYYMMDD.log` beside the reflection log;
 * undo adds a line too; a log that cannot be written (a link out of the library) never fails the accept.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Proposal } from '../../src/shared/types'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { acceptProposal, undoApplied } from '../../src/main/review/decisions'
import { proposalsWithStatus } from '../../src/main/review/plan'
import { skillManagerLogDir } from '../../src/main/review/skill-manager-log'
import { makeLibrary, pairedSkills, tempDir } from '../curate/fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

async function curated(prefix: string): Promise<{ dir: string; proposals: Proposal[] }> {
  const dir = fs.realpathSync(makeLibrary(pairedSkills(prefix)))
  dirs.push(dir)
  await curateLibrary(await openForCuration(dir), { now: NOW })
  return { dir, proposals: (await proposalsWithStatus(dir)).plan.proposals }
}

function logLines(dir: string, sub = 'logs'): string[] {
  const names = fs.readdirSync(path.join(dir, sub)).filter((n) => /^skill_manager_\d{8}\.log$/.test(n))
  expect(names).toHaveLength(1)
  return fs.readFileSync(path.join(dir, sub, names[0]!), 'utf8').split('\n').filter(Boolean)
}

const LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - (INFO|ERROR) - /

describe('skill_manager log', () => {
  it('accepting a merge and a cleanup writes INFO lines; undo adds one', async () => {
    const { dir, proposals } = await curated('700')
    const merge = proposals.find((p) => p.kind === 'merge' && p.members.some((m) => m.skill_id === '7001'))!
    const cleanup = proposals.find((p) => p.kind === 'cleanup')!
    expect(fs.existsSync(path.join(dir, 'logs'))).toBe(false)
    await acceptProposal(dir, merge.id, 'ana')
    await acceptProposal(dir, cleanup.id, 'ana')
    let lines = logLines(dir)
    expect(lines).toHaveLength(2)
    for (const l of lines) expect(l).toMatch(LINE)
    expect(lines[0]).toMatch(/ - INFO - Merged 2 similar skills into 7001 \(Sorting arrays\): 7002 moved to legacy\/ \(proposal .+, accepted by ana\)$/)
    expect(lines[1]).toMatch(/ - INFO - Cleaned unused skill 7005 \(Haiku\): moved to legacy\/ \(proposal .+, accepted by ana\)$/)
    // the log is beside the files it describes: the merged-away skill really is in legacy/
    expect(fs.existsSync(path.join(dir, 'legacy', 'skill_7002.md'))).toBe(true)

    await undoApplied(dir, merge.id, 'bo')
    lines = logLines(dir)
    expect(lines).toHaveLength(3)
    expect(lines[2]).toMatch(LINE)
    expect(lines[2]).toMatch(/ - INFO - Undid merge of 7001, 7002: files restored as they were before \(proposal .+, by bo\)$/)
    expect(fs.existsSync(path.join(dir, 'skill_7002.md'))).toBe(true)
  })

  it('a refused accept writes nothing; a transaction that fails writes an ERROR line', async () => {
    const { dir, proposals } = await curated('710')
    const merge = proposals.find((p) => p.kind === 'merge')!
    await expect(acceptProposal(dir, 'nope', 'ana')).rejects.toThrow(/no proposal/)
    expect(fs.existsSync(path.join(dir, 'logs'))).toBe(false)
    // a member changed on disk after the plan: the transaction refuses, the log says why
    const member = path.join(dir, merge.members[1]!.path)
    fs.appendFileSync(member, '\nedited by hand\n')
    await expect(acceptProposal(dir, merge.id, 'ana')).rejects.toThrow()
    const lines = logLines(dir)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`${LINE.source.slice(0, -1).replace('(INFO|ERROR)', 'ERROR')} Failed to apply merge proposal ${merge.id}: `))
  })

  it('a logs/ link leading out of the library is refused and reported, and the accept still sticks', async () => {
    const { dir, proposals } = await curated('720')
    const outside = tempDir('outside')
    dirs.push(outside)
    fs.symlinkSync(outside, path.join(dir, 'logs'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const cleanup = proposals.find((p) => p.kind === 'cleanup')!
      await acceptProposal(dir, cleanup.id, 'ana')
      expect(fs.existsSync(path.join(dir, 'legacy', 'skill_7205.md'))).toBe(true)
      expect(fs.readdirSync(outside)).toEqual([])
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/curation log .*skill_manager_\d{8}\.log.* could not be written/))
    } finally {
      warn.mockRestore()
    }
  })

  it('a SKILL.md library keeps the log under .skillbench/logs/, an AGIAgent library in logs/', async () => {
    const dir = tempDir('skillmd')
    dirs.push(dir)
    expect(await skillManagerLogDir(dir, ['pdf-tools/SKILL.md', 'legacy/old/SKILL.md'])).toBe('.skillbench/logs')
    expect(await skillManagerLogDir(dir, ['skill_1.md', 'legacy/skill_2.md'])).toBe('logs')
    // a proposal naming no skill file: the library's own files decide
    expect(await skillManagerLogDir(dir, [])).toBe('.skillbench/logs')
    fs.writeFileSync(path.join(dir, 'skill_9.md'), '---\nskill_id: 9\n---\n')
    expect(await skillManagerLogDir(dir, [])).toBe('logs')
  })
})
