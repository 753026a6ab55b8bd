import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CurationError, opsFromChanges, recoverTransactions, runTransaction } from '../../src/main/review/transactions'
import { readJournal } from '../../src/main/review/journal'
import { acceptProposal, rejectProposal, restoreSkill, undoApplied } from '../../src/main/review/decisions'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { proposalsWithStatus } from '../../src/main/review/plan'
import { openLibrary } from '../../src/main/store/library'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { DEPLOY, makeLibrary, pairedSkills, snapshot, tempDir } from '../curate/fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const skills = pairedSkills('100')

async function planned(): Promise<{ dir: string; root: string; ids: string[] }> {
  const dir = makeLibrary(skills)
  const opened = await openForCuration(dir)
  const plan = await curateLibrary(opened, { now: NOW })
  return { dir, root: opened.root, ids: plan.proposals.map((p) => p.id) }
}

describe('accept / undo', () => {
  it('applies a merge exactly as proposed, journals it, and undo restores the library byte for byte', async () => {
    const { dir, root, ids } = await planned()
    const before = snapshot(dir)
    const { plan } = await proposalsWithStatus(root)
    const merge = plan.proposals[0]!
    const record = await acceptProposal(root, ids[0]!, 'alice')
    const after = snapshot(dir)
    for (const c of merge.changes) {
      if (c.after === null) expect(after[c.path]).toBeUndefined()
      else expect(after[c.path]).toBe(c.after)
    }
    expect(Object.keys(after).length).toBe(Object.keys(before).length)
    const journal = (await readJournal(root)).records
    expect(journal).toHaveLength(1)
    expect(journal[0]).toMatchObject({ id: record.id, action: 'apply', proposal_id: ids[0], kind: 'merge', by: 'alice', author: 'offline' })
    expect(journal[0]!.changes).toEqual(merge.changes)
    expect((await proposalsWithStatus(root)).plan.proposals[0]!.status).toBe('applied')
    // The store sees the merged skill and the legacy one.
    const lib = await openLibrary(dir)
    expect((await lib.get('1001')).fetch_count).toBe(3)
    expect((await lib.get('1002', { includeLegacy: true })).legacy).toBe(true)

    await expect(acceptProposal(root, ids[0]!, 'alice')).rejects.toThrow(/already applied/)
    await undoApplied(root, ids[0]!, 'bob')
    expect(snapshot(dir)).toEqual({ ...before })
    expect((await proposalsWithStatus(root)).plan.proposals[0]!.status).toBe('undone')
    const records = (await readJournal(root)).records
    expect(records.map((r) => [r.action, r.by])).toEqual([['apply', 'alice'], ['undo', 'bob']])
    await expect(undoApplied(root, ids[0]!, 'bob')).rejects.toThrow(/already undone/)
  })

  it('refuses to undo when a touched file changed since, and says which', async () => {
    const { dir, root, ids } = await planned()
    await acceptProposal(root, ids[0]!, 'alice')
    fs.appendFileSync(path.join(dir, 'skill_1001.md'), '\nmy own note\n')
    const edited = snapshot(dir)
    await expect(undoApplied(root, ids[0]!, 'alice')).rejects.toThrow(/skill_1001\.md was changed since/)
    expect(snapshot(dir)).toEqual(edited)
  })

  it('refuses to apply when a member changed after the plan, changing nothing', async () => {
    const { dir, root, ids } = await planned()
    fs.appendFileSync(path.join(dir, 'skill_1002.md'), '\nchanged\n')
    const state = snapshot(dir)
    await expect(acceptProposal(root, ids[0]!, 'alice')).rejects.toThrow(/skill_1002\.md changed on disk/)
    expect(snapshot(dir)).toEqual(state)
    expect((await readJournal(root)).records).toEqual([])
    expect(fs.readdirSync(path.join(root, '.skillbench', 'tx'))).toEqual([])
  })

  it('reject marks the proposal and changes no file; unknown ids are clear errors', async () => {
    const { dir, root, ids } = await planned()
    const state = snapshot(dir)
    expect((await rejectProposal(root, ids[1]!)).status).toBe('rejected')
    expect(snapshot(dir)).toEqual(state)
    await expect(acceptProposal(root, ids[1]!, 'a')).rejects.toThrow(/rejected/)
    await expect(acceptProposal(root, 'm-nope', 'a')).rejects.toThrow(/no proposal "m-nope"/)
    await expect(undoApplied(root, 'm-nope', 'a')).rejects.toThrow(/nothing applied/)
  })

  it('cleanup moves to legacy/, restore brings the skill back and is journaled', async () => {
    const { dir, root, ids } = await planned()
    await acceptProposal(root, ids[2]!, 'alice')
    expect(fs.existsSync(path.join(dir, 'legacy', 'skill_1005.md'))).toBe(true)
    const opened = await openForCuration(dir)
    const record = await restoreSkill(opened, '1005', 'alice')
    expect(record.action).toBe('restore')
    expect(fs.existsSync(path.join(dir, 'skill_1005.md'))).toBe(true)
    await expect(restoreSkill(opened, '1005', 'alice')).rejects.toThrow(/not in legacy/)
  })
})

describe('opsFromChanges', () => {
  it('refuses deletions, paths outside the library and the state folder', () => {
    expect(() => opsFromChanges([{ path: 'skill_1.md', before: 'x', after: null }])).toThrow(/would be deleted/)
    expect(() => opsFromChanges([{ path: '../escape.md', before: null, after: 'x' }])).toThrow()
    expect(() => opsFromChanges([{ path: '/abs.md', before: null, after: 'x' }])).toThrow()
    expect(() => opsFromChanges([{ path: '.skillbench/journal', before: null, after: 'x' }])).toThrow(CurationError)
  })

  it('turns a SKILL.md removal + legacy creation into one folder move', () => {
    expect(
      opsFromChanges([
        { path: 'tools/pdf/SKILL.md', before: 'T', after: null },
        { path: 'legacy/tools/pdf/SKILL.md', before: null, after: 'T' }
      ])
    ).toEqual([{ op: 'move', from: 'tools/pdf', to: 'legacy/tools/pdf', file: 'SKILL.md', text: 'T' }])
  })

  it('moves a SKILL.md skill with its whole folder and undo brings all of it back', async () => {
    const dir = tempDir('skillmd')
    for (const name of ['alpha', 'beta']) {
      fs.mkdirSync(path.join(dir, name, 'scripts'), { recursive: true })
      fs.writeFileSync(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Deploy with docker compose, check logs and health\n---\n\n${DEPLOY}`)
      fs.writeFileSync(path.join(dir, name, 'scripts', 'run.sh'), 'echo hi\n')
    }
    const opened = await openForCuration(dir)
    const plan = await curateLibrary(opened, { now: NOW })
    expect(plan.proposals.map((p) => p.kind)).toEqual(['merge'])
    const before = snapshot(dir)
    await acceptProposal(opened.root, plan.proposals[0]!.id, 'u')
    const moved = plan.proposals[0]!.members[1]!.path.split('/')[0]!
    expect(fs.existsSync(path.join(dir, '.skillbench', 'legacy', moved, 'scripts', 'run.sh'))).toBe(true)
    expect(fs.existsSync(path.join(dir, 'legacy'))).toBe(false)
    expect(fs.existsSync(path.join(dir, moved))).toBe(false)
    await undoApplied(opened.root, plan.proposals[0]!.id, 'u')
    expect(snapshot(dir)).toEqual(before)
  })
})

describe('recovery', () => {
  it('rolls back a transaction interrupted after some ops and completes a committed one', async () => {
    const { dir, root } = await planned()
    const before = snapshot(dir)
    const { plan } = await proposalsWithStatus(root)
    const ops = opsFromChanges(plan.proposals[0]!.changes)
    // Simulate a crash: the hook throws a non-Error "crash" after the first op; runTransaction rolls
    // back itself, so instead copy the intent before the rollback by crashing inside the hook.
    let intent = ''
    await expect(
      runTransaction(root, { action: 'apply', proposal_id: 'p', kind: 'merge', by: 'u', changes: [], ops }, {
        afterOp: (i) => {
          if (i === 1) {
            const txDir = path.join(root, '.skillbench', 'tx')
            const name = fs.readdirSync(txDir)[0]!
            intent = fs.readFileSync(path.join(txDir, name), 'utf8')
            throw new Error('simulated crash')
          }
        }
      })
    ).rejects.toThrow('simulated crash')
    expect(snapshot(dir)).toEqual(before)
    // Replay the half-done state a SIGKILL would leave: ops 0..1 done, intent on disk, no journal record.
    const tx = JSON.parse(intent) as { id: string }
    fs.writeFileSync(path.join(dir, 'skill_1001.md'), plan.proposals[0]!.changes[0]!.after!)
    fs.mkdirSync(path.join(dir, 'legacy'), { recursive: true })
    fs.renameSync(path.join(dir, 'skill_1002.md'), path.join(dir, 'legacy', 'skill_1002.md'))
    fs.writeFileSync(path.join(root, '.skillbench', 'tx', `${tx.id}.json`), intent)
    const report = await recoverTransactions(root)
    expect(report.rolledBack).toEqual([tx.id])
    expect(snapshot(dir)).toEqual({ ...before })
  })
})

describe('recovery of a committed transaction', () => {
  it('keeps the new state when the crash came after the journal record (intent left behind)', async () => {
    const { dir, root, ids } = await planned()
    let intent = ''
    let intentName = ''
    await acceptProposal(root, ids[0]!, 'alice', {
      onStart: () => {
        const txDir = path.join(root, '.skillbench', 'tx')
        intentName = fs.readdirSync(txDir)[0]!
        intent = fs.readFileSync(path.join(txDir, intentName), 'utf8')
      }
    })
    const after = snapshot(dir)
    fs.writeFileSync(path.join(root, '.skillbench', 'tx', intentName), intent)
    const report = await recoverTransactions(root)
    expect(report.committed).toHaveLength(1)
    expect(report.rolledBack).toEqual([])
    expect(snapshot(dir)).toEqual(after)
    expect(fs.readdirSync(path.join(root, '.skillbench', 'tx'))).toEqual([])
  })
})

describe('recovery problems by code', () => {
  it('a crashed transaction whose files match neither state, and a torn intent: each problem coded, English as before, zh by code', async () => {
    const { dir, root } = await planned()
    const { plan } = await proposalsWithStatus(root)
    const ops = opsFromChanges(plan.proposals[0]!.changes)
    let intent = ''
    await expect(
      runTransaction(root, { action: 'apply', proposal_id: 'p', kind: 'merge', by: 'u', changes: [], ops }, {
        afterOp: () => {
          const txDir = path.join(root, '.skillbench', 'tx')
          intent = fs.readFileSync(path.join(txDir, fs.readdirSync(txDir)[0]!), 'utf8')
          throw new Error('simulated crash')
        }
      })
    ).rejects.toThrow('simulated crash')
    // The state a SIGKILL leaves, then a person's edit on top: the written file is neither its old nor its new text,
    // and the moved file is in both places.
    const tx = JSON.parse(intent) as { id: string; record: { ops: Array<{ op: string; path?: string; from?: string; to?: string }> } }
    const write = tx.record.ops.find((o) => o.op === 'write')!
    const move = tx.record.ops.find((o) => o.op === 'move')!
    fs.writeFileSync(path.join(dir, write.path!), 'edited by hand meanwhile\n')
    fs.mkdirSync(path.dirname(path.join(dir, move.to!)), { recursive: true })
    fs.copyFileSync(path.join(dir, move.from!), path.join(dir, move.to!))
    fs.writeFileSync(path.join(root, '.skillbench', 'tx', `${tx.id}.json`), intent)
    fs.writeFileSync(path.join(root, '.skillbench', 'tx', '00-torn.json'), intent.slice(0, 40))

    const report = await recoverTransactions(root)
    expect(report.rolledBack).toEqual([])
    expect(report.problems).toEqual([
      '00-torn.json: unreadable transaction intent set aside',
      `${tx.id}: cannot tell whether ${move.from} → ${move.to} happened (both or neither exist); ${write.path} matches neither its old nor its new text`
    ])
    expect(report.problemLines.map((l) => l.message)).toEqual(report.problems)
    expect(report.problemLines[0]).toMatchObject({ messageCode: 'review.recover_unreadable', params: { name: '00-torn.json' } })
    expect(report.problemLines[1]).toMatchObject({
      messageCode: 'review.recover_failed',
      params: {
        id: tx.id,
        problems: {
          messageCode: 'text.list',
          params: {
            first: { messageCode: 'review.undo_move_unclear', params: { from: move.from, to: move.to } },
            rest: { messageCode: 'review.undo_neither', params: { path: write.path } }
          }
        }
      }
    })
    expect(translateLine(report.problemLines[1], report.problems[1]!, 'zh')).toBe(
      `${tx.id}：无法判断 ${move.from} → ${move.to} 的移动是否已发生（两处都在或都不在）；${write.path} 既不是修改前的内容，也不是修改后的内容`
    )
    // both intents set aside, nothing else touched
    expect(fs.readdirSync(path.join(root, '.skillbench', 'tx')).sort()).toEqual(['00-torn.json.unreadable', `${tx.id}.json.conflict`])
    expect(fs.readFileSync(path.join(dir, write.path!), 'utf8')).toBe('edited by hand meanwhile\n')
  })
})
