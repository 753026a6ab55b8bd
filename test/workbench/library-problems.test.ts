/**
 * What the app shows of a library as a whole (Skills screen notice): a change a crash interrupted that recovery
 * could not roll back, and index.json that the last write could not update. Real folders, the real workbench.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SkillListResult } from '../../src/shared/api'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { benchesDisposedAfterEach, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()

function skillMd(name: string, text: string): string {
  return `---\nname: ${name}\ndescription: ${text}\n---\n\n# ${name}\n\n${text}\n`
}

/** A SKILL.md library of two skills whose index.json is a link (never written through), and a change a crash left. */
function brokenLibrary(): { lib: string; txId: string } {
  const lib = fs.realpathSync(tempDir('problems-lib'))
  for (const name of ['csv-report', 'pdf-split']) {
    fs.mkdirSync(path.join(lib, name))
    fs.writeFileSync(path.join(lib, name, 'SKILL.md'), skillMd(name, `Work with ${name} files step by step.`))
  }
  const outside = tempDir('problems-outside')
  fs.writeFileSync(path.join(outside, 'index.json'), '{"skills": []}\n')
  fs.symlinkSync(path.join(outside, 'index.json'), path.join(lib, 'index.json'))
  // the intent of a transaction killed mid-way, and the file it wrote edited by hand since: neither old nor new
  const txId = '20261203T091500Z-apply-crashed'
  fs.mkdirSync(path.join(lib, '.skillbench', 'tx'), { recursive: true })
  const ops = [{ op: 'write', path: 'csv-report/SKILL.md', before: 'the text before\n', after: 'the text the change wrote\n' }]
  fs.writeFileSync(path.join(lib, '.skillbench', 'tx', `${txId}.json`), JSON.stringify({ id: txId, record: { id: txId, action: 'apply', proposal_id: 'p-1', kind: 'merge', by: 'u', at: '2026-12-03T09:15:00Z', changes: [], ops } }))
  return { lib, txId }
}

describe('library problems in the skill list', () => {
  it('a crashed change recovery could not undo, then index.json not updated: English as before, by code, Chinese', async () => {
    const { lib, txId } = brokenLibrary()
    const b = await bench()
    await b.call('libraries.open', { path: lib })

    const first = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(first.skills.map((s) => s.name).sort()).toEqual(['csv-report', 'pdf-split'])
    expect(first.problems).toEqual([
      {
        message: `${txId}: csv-report/SKILL.md matches neither its old nor its new text`,
        messageCode: 'review.recover_failed',
        params: { id: txId, problems: { messageCode: 'review.undo_neither', params: { path: 'csv-report/SKILL.md' } } }
      }
    ])
    // recovery set the intent aside and left the file as the person edited it
    expect(fs.readdirSync(path.join(lib, '.skillbench', 'tx'))).toEqual([`${txId}.json.conflict`])
    expect(fs.readFileSync(path.join(lib, 'csv-report', 'SKILL.md'), 'utf8')).toContain('Work with csv-report files')
    expect(translateLine(first.problems![0], first.problems![0]!.message, 'zh')).toBe(`${txId}：csv-report/SKILL.md 既不是修改前的内容，也不是修改后的内容`)

    // still shown on the next listing (a recovery reports a problem once), and the index.json a retire could not update joins it
    const pdf = first.skills.find((s) => s.name === 'pdf-split')!
    await b.call('skills.delete', { library: lib, skillId: pdf.skill_id })
    const second = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(second.problems!.map((p) => p.messageCode)).toEqual(['review.recover_failed', 'index.not_updated'])
    const index = second.problems![1]!
    expect(index.message).toMatch(/^index\.json could not be updated: .*symbolic link/)
    expect(translateLine(index, index.message, 'en')).toBe(index.message)
    expect(translateLine(index, index.message, 'zh')).toMatch(/^无法更新 index\.json：.*符号链接/)
  })

  it('a library with nothing wrong lists no problems (the field is absent)', async () => {
    const lib = fs.realpathSync(tempDir('problems-none'))
    fs.mkdirSync(path.join(lib, 'csv-report'))
    fs.writeFileSync(path.join(lib, 'csv-report', 'SKILL.md'), skillMd('csv-report', 'Work with CSV files step by step.'))
    const b = await bench()
    await b.call('libraries.open', { path: lib })
    const list = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(list.skills).toHaveLength(1)
    expect('problems' in list).toBe(false)
  })
})
