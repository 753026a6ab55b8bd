/**
 * A run whose update of a skill is in the library's plan already said only "was proposed before (id)": not whether
 * that proposal still waits for review, was accepted, rejected, or accepted and undone. Now the line says its status
 * (by the journal), in English and Chinese: for `--force` on a task a skill came from (reflect.again_proposed_before)
 * and for a frozen skill's finished version (reflect.finished_update_before). Real runs on real files, decisions
 * through the review engine.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { savePendingProposal } from '../../src/main/reflect/decide-io'
import { reflectOffline } from '../../src/main/reflect/offline-reflector'
import { proposedBefore } from '../../src/main/reflect/proposed-before'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import { acceptProposal, rejectProposal, undoApplied } from '../../src/main/review/decisions'
import { loadPlan } from '../../src/main/review/plan'
import { scanRoot } from '../../src/main/scan/scan-root'
import { openLibrary } from '../../src/main/store/library'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { CALC_LOG, makeRoot, skillFiles } from './make-root'

const zh = (s: { messageCode?: unknown; params?: unknown }): string => translateMessage(s, '', 'zh')

describe('the status of an update proposed before, worded', () => {
  it('pending, accepted, rejected, undone: each in English and Chinese, for both kinds of update', () => {
    const words = {
      pending: ['still waits for review', '仍在等待审阅'],
      applied: ['was accepted', '已被接受'],
      rejected: ['was rejected', '已被拒绝'],
      undone: ['was accepted, then undone: it waits for review again', '接受后已撤销，再次等待审阅']
    } as const
    for (const [status, [en, cn]] of Object.entries(words) as [keyof typeof words, readonly [string, string]][]) {
      const again = proposedBefore('again', { title: 'Calc', id: 'again-1', status })
      expect(again.text).toBe(`reflected again: the same update of "Calc", the skill made from this task, was proposed before (again-1) and ${en}`)
      expect(zh(again)).toBe(`已重新反思：对“Calc”（由此任务生成的技能）的相同更新此前已提出（again-1），${cn}`)
      const finished = proposedBefore('finished', { title: 'Calc', id: 'finished-1', status })
      expect(finished.text).toBe(`the update of "Calc" for the finished task was proposed before (finished-1) and ${en}`)
      expect(zh(finished)).toBe(`已完成任务对“Calc”的更新此前已提出（finished-1），${cn}`)
    }
  })
})

/** A root with one reflected task whose skill a person edited since (so reflecting it again proposes an update). */
async function editedSkill(): Promise<{ root: string; lib: string; skillPath: string }> {
  const root = makeRoot([{ dir: 'alice/output_calc', log: CALC_LOG }])
  const first = await runReflection({ rootDir: root }, defaultReflectionDeps())
  expect(first.created).toHaveLength(1)
  const lib = libraryDirFor(root, 'alice')
  const skillPath = path.join(lib, skillFiles(lib)[0]!)
  fs.appendFileSync(skillPath, '\nA line a person added by hand.\n')
  return { root, lib, skillPath }
}

describe('reflect --force: the same update proposed before says what became of it', () => {
  it('pending, then (accepted: nothing new to propose) undone, then rejected', async () => {
    const { root, lib, skillPath } = await editedSkill()
    const edited = fs.readFileSync(skillPath, 'utf8')
    const force = (): ReturnType<typeof runReflection> => runReflection({ rootDir: root, force: true }, defaultReflectionDeps())

    const proposed = await force()
    expect(proposed.skipped.map((s) => s.messageCode)).toEqual(['reflect.again_proposed'])
    const id = proposed.proposals![0]!

    const pending = await force()
    expect(pending.proposals ?? []).toEqual([])
    expect(pending.skipped[0]).toMatchObject({ messageCode: 'reflect.again_proposed_before', params: { id, status: { messageCode: 'reflect.proposed_pending' } } })
    expect(pending.skipped[0]!.reason).toMatch(new RegExp(`was proposed before \\(${id}\\) and still waits for review$`))
    expect(zh(pending.skipped[0]!)).toMatch(new RegExp(`此前已提出（${id}），仍在等待审阅$`))

    // accepted: the skill says what the reflection says, so there is nothing to propose (and nothing "before")
    await acceptProposal(lib, id, 'user')
    expect((await force()).skipped.map((s) => s.messageCode)).toEqual(['reflect.again_unchanged'])

    await undoApplied(lib, id, 'user')
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(edited)
    const undone = await force()
    expect(undone.skipped[0]).toMatchObject({ messageCode: 'reflect.again_proposed_before', params: { id, status: { messageCode: 'reflect.proposed_undone' } } })
    expect(undone.skipped[0]!.reason).toMatch(/and was accepted, then undone: it waits for review again$/)
    expect(zh(undone.skipped[0]!)).toMatch(/，接受后已撤销，再次等待审阅$/)

    await rejectProposal(lib, id, 'user')
    const rejected = await force()
    expect(rejected.skipped[0]).toMatchObject({ messageCode: 'reflect.again_proposed_before', params: { id, status: { messageCode: 'reflect.proposed_rejected' } } })
    expect(rejected.skipped[0]!.reason).toMatch(new RegExp(`was proposed before \\(${id}\\) and was rejected$`))
    expect(zh(rejected.skipped[0]!)).toMatch(/，已被拒绝$/)
    // the plan still holds it once, rejected; the skill is as the person left it
    expect((await loadPlan(lib)).proposals.filter((p) => p.id === id).map((p) => p.status)).toEqual(['rejected'])
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(edited)
  })

  it('the CLI says it on stderr, in Chinese with --lang zh; --json carries the code and the status', async () => {
    const { root } = await editedSkill()
    const run = async (args: string[]): Promise<{ stdout: string; stderr: string }> => {
      const out = { stdout: '', stderr: '' }
      const io: CliIo = { stdout: (t) => void (out.stdout += String(t)), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: root, env: {}, signal: new AbortController().signal }
      expect(await main(args, io), out.stderr).toBe(0)
      return out
    }
    await run(['reflect', '--root-dir', root, '--force'])
    const en = await run(['reflect', '--root-dir', root, '--force'])
    expect(en.stderr).toMatch(/^\[1\/1\] Processing output_calc\.\.\.\nreflected again: the same update of ".*", the skill made from this task, was proposed before \(again-[0-9a-f]{12}\) and still waits for review$/m)
    const cn = await run(['--lang', 'zh', 'reflect', '--root-dir', root, '--force'])
    expect(cn.stderr).toMatch(/^已重新反思：对“.*”（由此任务生成的技能）的相同更新此前已提出（again-[0-9a-f]{12}），仍在等待审阅$/m)
    const json = JSON.parse((await run(['reflect', '--root-dir', root, '--force', '--json'])).stdout) as { skipped: { messageCode: string; params: { status: unknown } }[] }
    expect(json.skipped.map((s) => [s.messageCode, s.params.status])).toEqual([['reflect.again_proposed_before', { messageCode: 'reflect.proposed_pending', params: {} }]])
  })
})

describe('a frozen skill\'s finished version proposed before', () => {
  it('rejected: the next run says it was rejected, in English and Chinese', async () => {
    const TASK = 'output_20260101_000001'
    const done = CALC_LOG.replace('Write a Python calculator with unit tests', '用 Python 写一个计算器，并写单元测试')
    const root = makeRoot([{ dir: `eve/${TASK}`, log: done.replace(/TASK_COMPLETED:.*\n/, '') }])
    const lib = libraryDirFor(root, 'eve')
    fs.mkdirSync(lib, { recursive: true })
    const draft = reflectOffline((await scanRoot({ rootDir: root })).tasks[0]!)
    await (await openLibrary(lib)).create({ skill_id: '1767225600', title: draft.title, body: draft.body, usage_conditions: draft.usageConditions, task_directories: [TASK] })
    fs.writeFileSync(path.join(root, 'eve', TASK, 'logs', 'manager.out'), done)

    const first = await runReflection({ rootDir: root }, defaultReflectionDeps())
    expect(first.skipped.map((s) => s.messageCode)).toEqual(['reflect.finished_update'])
    const id = first.proposals![0]!
    await rejectProposal(lib, id, 'user')
    const next = await runReflection({ rootDir: root }, defaultReflectionDeps())
    expect(next.proposals ?? []).toEqual([])
    expect(next.skipped[0]).toMatchObject({ messageCode: 'reflect.finished_update_before', params: { id, status: { messageCode: 'reflect.proposed_rejected' } } })
    expect(next.skipped[0]!.reason).toMatch(new RegExp(`for the finished task was proposed before \\(${id}\\) and was rejected$`))
    expect(zh(next.skipped[0]!)).toMatch(new RegExp(`的更新此前已提出（${id}），已被拒绝$`))
  })
})

describe('savePendingProposal', () => {
  it('a proposal already in the plan: its status by the journal (accepted while applied)', async () => {
    const { root, lib } = await editedSkill()
    const run = await runReflection({ rootDir: root, force: true }, defaultReflectionDeps())
    const proposal = (await loadPlan(lib)).proposals.find((p) => p.id === run.proposals![0])!
    expect(await savePendingProposal(lib, proposal)).toEqual({ exists: 'pending' })
    await acceptProposal(lib, proposal.id, 'user')
    expect(await savePendingProposal(lib, proposal)).toEqual({ exists: 'applied' })
    await undoApplied(lib, proposal.id, 'user')
    expect(await savePendingProposal(lib, proposal)).toEqual({ exists: 'undone' })
    expect(await savePendingProposal(lib, { ...proposal, id: 'again-000000000000' })).toBe('added')
  })
})
