import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { reflectOffline } from '../../src/main/reflect/offline-reflector'
import { previewReflection, writtenUnfinished } from '../../src/main/reflect/reflect-preview'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import { acceptProposal, undoApplied } from '../../src/main/review/decisions'
import { loadPlan } from '../../src/main/review/plan'
import { scanRoot } from '../../src/main/scan/scan-root'
import { openLibrary } from '../../src/main/store/library'
import { CALC_LOG, makeRoot } from './make-root'

const ZH_DONE = CALC_LOG.replace('Write a Python calculator with unit tests', '用 Python 写一个计算器，并写单元测试').replace('calculator done', '计算器完成')
const ZH_UNFINISHED = ZH_DONE.replace(/TASK_COMPLETED:.*\n/, '')
const TASK = 'output_20260101_000001'

/** A root whose unfinished task was reflected the old way: the offline skill saying "结果：未完成" on disk. */
async function frozenRoot(): Promise<{ root: string; lib: string; skillPath: string; before: string }> {
  const root = makeRoot([{ dir: `eve/${TASK}`, log: ZH_UNFINISHED }])
  const lib = libraryDirFor(root, 'eve')
  fs.mkdirSync(lib, { recursive: true })
  const [trace] = (await scanRoot({ rootDir: root })).tasks
  const draft = reflectOffline(trace!)
  expect(draft.body).toContain('**结果：** 未完成')
  const store = await openLibrary(lib)
  const skill = await store.create({ skill_id: '1767225600', title: draft.title, body: draft.body, usage_conditions: draft.usageConditions, task_directories: [TASK] })
  expect(writtenUnfinished(skill)).toBe(true)
  const skillPath = path.join(lib, skill.path)
  return { root, lib, skillPath, before: fs.readFileSync(skillPath, 'utf8') }
}

describe('a skill frozen from an unfinished task, once the task finishes', () => {
  it('gets its finished version as a reviewable update; accepting rewrites it, undo restores it byte for byte, nothing is deleted', async () => {
    const { root, lib, skillPath, before } = await frozenRoot()
    const deps = defaultReflectionDeps()
    // still unfinished: nothing proposed, the skill untouched
    const early = await runReflection({ rootDir: root }, deps)
    expect(early.skipped.map((s) => s.why)).toEqual(['unfinished'])
    expect(early.proposals ?? []).toEqual([])

    fs.writeFileSync(path.join(root, 'eve', TASK, 'logs', 'manager.out'), ZH_DONE)
    const traces = (await scanRoot({ rootDir: root })).tasks
    expect([...previewReflection(traces, () => 'frozen').values()]).toEqual([{ state: 'update' }])

    const run = await runReflection({ rootDir: root }, deps)
    expect(run.created).toEqual([])
    expect(run.proposals).toHaveLength(1)
    expect(run.skipped[0]!.reason).toMatch(/finished since its skill was written unfinished: update of ".*" proposed for review \(finished-/)
    expect(run.skipped[0]).toMatchObject({ messageCode: 'reflect.finished_update', params: { id: run.proposals![0] } })
    // proposed, not written: the file is as it was
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(before)
    const proposal = (await loadPlan(lib)).proposals.find((p) => p.id === run.proposals![0])!
    expect(proposal.kind).toBe('enhance')
    expect(proposal.changes[0]!.before).toBe(before)
    expect(proposal.changes[0]!.after).toContain('**结果：** 已完成。')
    expect(proposal.changes[0]!.after).not.toContain('未完成')

    // the next run sees it waiting for review and proposes nothing new
    const again = await runReflection({ rootDir: root }, deps)
    expect(again.proposals ?? []).toEqual([])
    expect(again.skipped.map((s) => [s.reason, s.messageCode])).toEqual([['enhancement pending review', 'reflect.enhancement_pending']])

    await acceptProposal(lib, proposal.id, 'user')
    const after = fs.readFileSync(skillPath, 'utf8')
    expect(after).toContain('已完成')
    expect(after).not.toContain('未完成')
    const skills = (await (await openLibrary(lib)).list({ includeLegacy: true })).skills
    expect(skills.map((s) => s.skill_id)).toEqual(['1767225600'])
    expect(skills[0]!.task_directories).toEqual([TASK])
    expect(writtenUnfinished(skills[0]!)).toBe(false)

    await undoApplied(lib, proposal.id, 'user')
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(before)
  })

  it('--force reflects it again into the same skill: an update proposal, never a second skill of the task', async () => {
    const { root, lib, skillPath, before } = await frozenRoot()
    fs.writeFileSync(path.join(root, 'eve', TASK, 'logs', 'manager.out'), ZH_DONE)
    const run = await runReflection({ rootDir: root, force: true }, defaultReflectionDeps())
    expect(run.created).toEqual([])
    expect(run.skipped.map((s) => s.messageCode)).toEqual(['reflect.again_proposed'])
    expect((await (await openLibrary(lib)).list()).skills).toHaveLength(1)
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(before)
    const proposal = (await loadPlan(lib)).proposals.find((p) => p.id === run.proposals![0])!
    expect(proposal.changes[0]!.after).toContain('**结果：** 已完成。')
    await acceptProposal(lib, proposal.id, 'user')
    expect((await (await openLibrary(lib)).list()).skills.map((s) => s.task_directories)).toEqual([[TASK]])
  })

  it('two reflect processes at once propose the finished version once; the skill file is untouched', async () => {
    const { root, lib, skillPath, before } = await frozenRoot()
    fs.writeFileSync(path.join(root, 'eve', TASK, 'logs', 'manager.out'), ZH_DONE)
    const cli = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
    const runOne = (): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [cli, 'reflect', '--root-dir', root, '--json'], { env: { ...process.env, SKILLBENCH_FROM_SOURCE: '1' } })
        let out = ''
        child.stdout.on('data', (d: Buffer) => (out += d.toString()))
        child.on('close', (code) => resolve({ code, out }))
      })
    const results = await Promise.all([runOne(), runOne()])
    expect(results.map((r) => r.code)).toEqual([0, 0])
    const proposals = (await loadPlan(lib)).proposals.filter((p) => p.id.startsWith('finished-'))
    expect(proposals).toHaveLength(1)
    const reasons = results.flatMap((r) => (JSON.parse(r.out) as { skipped: { reason: string }[] }).skipped.map((x) => x.reason))
    expect(reasons.filter((r) => r.includes('proposed for review'))).toHaveLength(1)
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(before)
  }, 120_000)

  it('a skill that says the task finished, or a retired frozen one, counts as reflected', () => {
    expect(writtenUnfinished({ body: '**Outcome:** Completed.', legacy: false })).toBe(false)
    expect(writtenUnfinished({ body: '**Outcome:** Not finished: the log has no completion marker.', legacy: false })).toBe(true)
    expect(writtenUnfinished({ body: '**结果：** 未完成：日志中没有完成标记。', legacy: true })).toBe(false)
  })
})
