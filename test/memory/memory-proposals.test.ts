/**
 * Memory proposals in the review engine: a reviewer's edit of the proposed text is what lands; a stated preference
 * accepted from the Memory screen's queue reaches long-term memory too; a memory folder that is a link is refused.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { acceptProposal, undoApplied } from '../../src/main/review/decisions'
import { proposedPreferences, proposeMemory, type ProposedPreference } from '../../src/main/review/memory-proposals'
import { proposalsWithStatus } from '../../src/main/review/plan'
import { coded } from '../../src/shared/error-codes'
import { saveEdits } from '../../src/main/review/queue'
import { acceptPendingPreference, capturePreferences } from '../../src/main/memory/memory-files'

const dirs: string[] = []
function tmp(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-memprop-')))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('memory proposals', () => {
  it('lands the reviewer’s edited bullet, keeps entries added meanwhile, and undo takes back only its own', async () => {
    const root = tmp()
    const lib = path.join(root, 'lib')
    const ws = path.join(root, 'ws')
    fs.mkdirSync(lib)
    fs.mkdirSync(path.join(ws, 'memory'), { recursive: true })
    fs.writeFileSync(path.join(ws, 'memory', 'lessons.md'), '# Lessons / 行为约束\n\n- Keep answers short.\n')
    const { proposed } = await proposeMemory(lib, [{ workspace: ws, target: 'lessons', entries: ['Critic suggestion: check the allowlist'], source: 'critic', reason: coded('memory.reason_agent', { tool: 'add_lesson' }), author: 'offline' }])
    const p = proposed[0]!
    const change = p.changes[0]!
    expect(change.after).toBe('# Lessons / 行为约束\n\n- Keep answers short.\n- Critic suggestion: check the allowlist\n')
    await saveEdits(lib, p.id, [{ path: change.path, before: change.before, after: change.after!.replace('check the allowlist', 'check the domain allowlist before searching') }])
    // another process adds a lesson meanwhile
    fs.appendFileSync(path.join(ws, 'memory', 'lessons.md'), '- Run the tests first.\n')
    const record = await acceptProposal(lib, p.id, 'user')
    const text = fs.readFileSync(path.join(ws, 'memory', 'lessons.md'), 'utf8')
    expect(text).toBe('# Lessons / 行为约束\n\n- Keep answers short.\n- Run the tests first.\n- Critic suggestion: check the domain allowlist before searching\n')
    expect(record.memory?.written).toEqual([{ file: 'memory/lessons.md', entry: 'Critic suggestion: check the domain allowlist before searching' }])
    await undoApplied(lib, p.id, 'user')
    expect(fs.readFileSync(path.join(ws, 'memory', 'lessons.md'), 'utf8')).toBe('# Lessons / 行为约束\n\n- Keep answers short.\n- Run the tests first.\n')
  })

  it('a preference accepted from the pending queue reaches long-term memory, a new value of its key replaces the old', async () => {
    const ws = tmp()
    await capturePreferences(ws, [{ text: 'language: en', source: 't1' }])
    let [item] = (await capturePreferences(ws, [])).file.items
    await acceptPendingPreference(ws, item!.id)
    await capturePreferences(ws, [{ text: 'language: zh', source: 't2' }])
    ;[item] = (await capturePreferences(ws, [])).file.items
    const r = await acceptPendingPreference(ws, item!.id)
    expect(r).toMatchObject({ added: true, replaced: 'language: en' })
    expect(fs.readFileSync(path.join(ws, 'memory', 'preferences.md'), 'utf8')).toBe('# Preferences / 用户偏好\n\n- language: zh\n')
    expect(fs.readFileSync(path.join(ws, 'memory', 'long-term.md'), 'utf8')).toBe('# Long-term memory / 长期记忆\n\n## Preferences / 用户偏好\n\n- language: zh\n')
  })

  it('refuses a memory folder that is a link, and writes nothing through it', async () => {
    const root = tmp()
    const lib = path.join(root, 'lib')
    const ws = path.join(root, 'ws')
    const elsewhere = path.join(root, 'elsewhere')
    fs.mkdirSync(lib)
    fs.mkdirSync(ws)
    fs.mkdirSync(elsewhere)
    fs.symlinkSync(elsewhere, path.join(ws, 'memory'))
    await expect(proposeMemory(lib, [{ workspace: ws, target: 'lessons', entries: ['x rule here'], source: 'agent', reason: coded('memory.reason_agent', { tool: 'add_lesson' }), author: 'mcp' }])).rejects.toThrow()
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })

  it('lists the preferences still waiting in the plan for one workspace: pending or undone, not applied, not another folder', async () => {
    const root = tmp()
    const lib = path.join(root, 'lib')
    const ws = path.join(root, 'ws')
    const other = path.join(root, 'other')
    fs.mkdirSync(lib)
    const reason = coded('memory.reason_preference', { n: 2 })
    const { proposed } = await proposeMemory(lib, [
      { workspace: ws, target: 'preferences', entries: ['answer briefly'], source: 'preference', reason, author: 'offline', details: { task_count: 2 } },
      { workspace: ws, target: 'preferences', entries: ['use tabs'], source: 'preference', reason, author: 'offline' },
      { workspace: ws, target: 'lessons', entries: ['Run the tests first.'], source: 'critic', reason, author: 'offline' },
      { workspace: other, target: 'preferences', entries: ['answer at length'], source: 'preference', reason, author: 'offline' }
    ])
    const waiting = async (): Promise<ProposedPreference[]> => proposedPreferences((await proposalsWithStatus(lib)).plan.proposals, ws)
    expect(await waiting()).toEqual([
      { proposalId: proposed[0]!.id, text: 'answer briefly', tasks: 2 },
      { proposalId: proposed[1]!.id, text: 'use tabs', tasks: 1 }
    ])
    await acceptProposal(lib, proposed[0]!.id, 'user')
    expect((await waiting()).map((p) => p.text)).toEqual(['use tabs'])
    await undoApplied(lib, proposed[0]!.id, 'user')
    expect((await waiting()).map((p) => p.text)).toEqual(['answer briefly', 'use tabs'])
  })
})
