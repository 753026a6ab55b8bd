/**
 * What the app shows of a library as a whole (Skills screen notice). Listing only reads: a change a crash
 * interrupted is reported, and the next write finishes it; what a recovery did — in this process or any other —
 * is kept in the library (.skillbench/recovery-log) until the person dismisses it, also across a restart; and
 * index.json that the last write could not update. Real folders, the real workbench, the real CLI process.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SkillListResult } from '../../src/shared/api'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { benchesDisposedAfterEach, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()
const PROJECT = path.resolve(__dirname, '..', '..')

function skillMd(name: string, text: string): string {
  return `---\nname: ${name}\ndescription: ${text}\n---\n\n# ${name}\n\n${text}\n`
}

/** A SKILL.md library of two skills. */
function library(prefix: string): string {
  const lib = fs.realpathSync(tempDir(prefix))
  for (const name of ['csv-report', 'pdf-split']) {
    fs.mkdirSync(path.join(lib, name))
    fs.writeFileSync(path.join(lib, name, 'SKILL.md'), skillMd(name, `Work with ${name} files step by step.`))
  }
  return lib
}

/** The intent of a transaction killed after its write of `rel` (before → after), as runTransaction leaves it. */
function crashedChange(lib: string, txId: string, rel: string, before: string, after: string): void {
  fs.mkdirSync(path.join(lib, '.skillbench', 'tx'), { recursive: true })
  const ops = [{ op: 'write', path: rel, before, after }]
  fs.writeFileSync(path.join(lib, '.skillbench', 'tx', `${txId}.json`), JSON.stringify({ id: txId, record: { id: txId, action: 'apply', proposal_id: `p-${txId}`, kind: 'merge', by: 'u', at: '2026-12-03T09:15:00Z', changes: [], ops } }))
}

/** Every entry under `dir`: its kind, size, mtime and (files) a hash of its bytes. */
function treeState(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      const st = fs.lstatSync(path.join(dir, r))
      const bytes = e.isFile() ? createHash('sha256').update(fs.readFileSync(path.join(dir, r))).digest('hex') : e.isSymbolicLink() ? fs.readlinkSync(path.join(dir, r)) : ''
      out[r] = `${e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : 'file'} ${st.size} ${st.mtimeMs} ${bytes}`
      if (e.isDirectory()) walk(r)
    }
  }
  out['.'] = String(fs.statSync(dir).mtimeMs)
  walk('')
  return out
}

/** Runs the real CLI as users do; `undo` of an id never applied still finishes what a crash interrupted first. */
function cliUndoNothing(lib: string): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(PROJECT, 'bin', 'skillbench.cjs'), 'undo', 'never-applied', '--library', lib], { encoding: 'utf8', cwd: PROJECT, timeout: 90_000 })
  return { code: r.status, stderr: r.stderr }
}

describe('library problems in the skill list', () => {
  it('listing a library with an interrupted change changes no file and says the next write finishes it; an edit in the app does, and what it could not do stays shown', async () => {
    const lib = library('problems-lib')
    const outside = tempDir('problems-outside')
    fs.writeFileSync(path.join(outside, 'index.json'), '{"skills": []}\n')
    fs.symlinkSync(path.join(outside, 'index.json'), path.join(lib, 'index.json'))
    // the file the change wrote was edited by hand since: neither its old nor its new text
    const txId = '20261203T091500Z-apply-crashed'
    crashedChange(lib, txId, 'csv-report/SKILL.md', 'the text before\n', 'the text the change wrote\n')
    const b = await bench()
    await b.call('libraries.open', { path: lib })

    const before = treeState(lib)
    const first = await b.call<SkillListResult>('skills.list', { library: lib })
    const again = await b.call<SkillListResult>('skills.list', { library: lib, includeLegacy: true })
    expect(treeState(lib)).toEqual(before)
    expect(first.skills.map((s) => s.name).sort()).toEqual(['csv-report', 'pdf-split'])
    const pending = {
      message: `${txId}: a change was interrupted (a crash or a kill); the next change to this library (from the app, the CLI or an agent) finishes it`,
      messageCode: 'review.interrupted_pending',
      params: { id: txId }
    }
    expect(first.problems).toEqual([pending])
    expect(again.problems).toEqual([pending])
    expect('problemsDismissUpTo' in first).toBe(false) // nothing to dismiss: it goes when a write finishes it
    expect(translateLine(pending, pending.message, 'zh')).toBe(`${txId}：一次修改被中断（崩溃或被终止）；下一次对此技能库的修改（来自应用、命令行或智能体）会把它完成`)

    // a retire in the app is a write: it finishes the change first (recovery cannot roll it back: it is set aside)
    const pdf = first.skills.find((s) => s.name === 'pdf-split')!
    await b.call('skills.delete', { library: lib, skillId: pdf.skill_id })
    expect(fs.readdirSync(path.join(lib, '.skillbench', 'tx'))).toEqual([`${txId}.json.conflict`])
    expect(fs.readFileSync(path.join(lib, 'csv-report', 'SKILL.md'), 'utf8')).toContain('Work with csv-report files')
    const second = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(second.problems!.map((p) => p.messageCode)).toEqual(['review.recover_failed', 'index.not_updated'])
    const [recovery, index] = second.problems!
    expect(recovery).toEqual({
      message: `${txId}: csv-report/SKILL.md matches neither its old nor its new text`,
      messageCode: 'review.recover_failed',
      params: { id: txId, problems: { messageCode: 'review.undo_neither', params: { path: 'csv-report/SKILL.md' } } }
    })
    expect(translateLine(recovery!, recovery!.message, 'zh')).toBe(`${txId}：csv-report/SKILL.md 既不是修改前的内容，也不是修改后的内容`)
    expect(index!.message).toMatch(/^index\.json could not be updated: .*symbolic link/)
    expect(translateLine(index!, index!.message, 'zh')).toMatch(/^无法更新 index\.json：.*符号链接/)
    expect(second.problemsDismissUpTo).toBe(fs.statSync(path.join(lib, '.skillbench', 'recovery-log')).size)

    // dismissed: recovery's line goes, index.json's (this process's last write) stays; nothing is removed
    await b.call('skills.dismissProblems', { library: lib, upTo: second.problemsDismissUpTo })
    const third = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(third.problems!.map((p) => p.messageCode)).toEqual(['index.not_updated'])
    expect(fs.readFileSync(path.join(lib, '.skillbench', 'recovery-log'), 'utf8')).toContain('review.recover_failed')
  })

  it("a recovery by another process (the CLI) is shown by a fresh workbench; dismissed, it stays dismissed after a restart, and a later one is shown", async () => {
    const lib = library('problems-cli')
    const original = fs.readFileSync(path.join(lib, 'csv-report', 'SKILL.md'), 'utf8')
    const changed = skillMd('csv-report', 'What the killed merge wrote.')
    fs.writeFileSync(path.join(lib, 'csv-report', 'SKILL.md'), changed)
    crashedChange(lib, 'tx-cli-1', 'csv-report/SKILL.md', original, changed)

    const cli = cliUndoNothing(lib)
    expect(cli.code).not.toBe(0) // nothing was applied to undo…
    expect(cli.stderr).toMatch(/never-applied/)
    // …but it rolled the interrupted change back first
    expect(fs.readFileSync(path.join(lib, 'csv-report', 'SKILL.md'), 'utf8')).toBe(original)
    expect(fs.readdirSync(path.join(lib, '.skillbench', 'tx'))).toEqual([])

    const settings = tempDir('problems-settings')
    const b = await bench(undefined, undefined, settings)
    await b.call('libraries.open', { path: lib })
    const shown = await b.call<SkillListResult>('skills.list', { library: lib })
    const rolledBack = {
      message: 'tx-cli-1: an interrupted change (proposal p-tx-cli-1) was rolled back; nothing of it stays applied',
      messageCode: 'review.recover_rolled_back',
      params: { id: 'tx-cli-1', proposal: 'p-tx-cli-1' }
    }
    expect(shown.problems).toEqual([rolledBack])
    expect(translateLine(rolledBack, rolledBack.message, 'zh')).toBe('tx-cli-1：被中断的修改（提议 p-tx-cli-1）已回滚，没有任何部分保留下来')
    expect(await b.call('skills.dismissProblems', { library: lib, upTo: shown.problemsDismissUpTo })).toEqual({ seenUpTo: shown.problemsDismissUpTo })
    expect('problems' in (await b.call<SkillListResult>('skills.list', { library: lib }))).toBe(false)

    // a restart: a new workbench on the same settings still has it dismissed (kept in the library, not in memory)
    await b.wb.dispose()
    const restarted = await bench(undefined, undefined, settings)
    await restarted.call('libraries.open', { path: lib })
    expect('problems' in (await restarted.call<SkillListResult>('skills.list', { library: lib }))).toBe(false)

    // another crash, recovered by the CLI again: only the new one is shown
    fs.writeFileSync(path.join(lib, 'pdf-split', 'SKILL.md'), 'edited by hand\n')
    crashedChange(lib, 'tx-cli-2', 'pdf-split/SKILL.md', 'old\n', 'new\n')
    expect(cliUndoNothing(lib).code).not.toBe(0)
    const later = await restarted.call<SkillListResult>('skills.list', { library: lib })
    expect(later.problems!.map((p) => [p.messageCode, p.params?.id])).toEqual([['review.recover_failed', 'tx-cli-2']])
    expect(later.problemsDismissUpTo).toBeGreaterThan(shown.problemsDismissUpTo!)
  }, 120_000)

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
