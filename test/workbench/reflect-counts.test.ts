/**
 * The Reflect list, the task lists and the Overview count what a reflect run does (issues 36/37): greetings and
 * follow-ups show as skipped with their reason, "new" is what becomes a skill, and after the run the Overview counts
 * the reflected tasks — for a data root's AGIAgent tasks and for Claude Code / Codex session folders alike.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiEvent, JobInfo, LibraryInfo, OverviewResult, ReflectSummary, TaskListResult } from '../../src/shared/api'
import { benchesDisposedAfterEach, tempDir, type TestBench } from './helpers'

const bench = benchesDisposedAfterEach()

async function summaryOf(b: TestBench, job: JobInfo): Promise<ReflectSummary> {
  await b.wb.waitForJob(job.jobId)
  const done = b.events.find((e): e is Extract<ApiEvent, { type: 'job.done' }> => e.type === 'job.done' && e.jobId === job.jobId)!
  expect(done.state).toBe('done')
  return done.result as ReflectSummary
}

/** A Codex home with one session: a greeting, a real task, and a follow-up the user stopped. */
function codexHome(): string {
  const home = tempDir('home')
  const dir = path.join(home, '.codex', 'sessions', '2026', '01', '02')
  fs.mkdirSync(dir, { recursive: true })
  const user = (message: string) => ({ type: 'event_msg', payload: { type: 'user_message', message } })
  const answer = (text: string) => [
    { type: 'response_item', payload: { type: 'message', role: 'assistant', phase: 'final_answer', content: [{ type: 'output_text', text }] } },
    { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: text } }
  ]
  const call = (id: string, cmd: string) => [
    { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: id } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: 'Process exited with code 0' } }
  ]
  const records = [
    { type: 'session_meta', payload: { id: 'abc', cwd: '/repo' } },
    user('hi!'),
    ...answer('Hello! What shall we work on?'),
    user('Configure nightly rsync backups of the photo archive to the NAS with seven rotated copies'),
    ...call('c1', 'rsync -a photos nas:/backup'),
    ...call('c2', 'crontab -l'),
    ...answer('Backups run nightly.'),
    user('also lint'),
    { type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } }
  ]
  fs.writeFileSync(path.join(dir, 'rollout-2026-01-02T10-00-00-abc.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return home
}

describe('counts that agree with what reflect does', () => {
  it('a Codex session folder: the list says greeting / follow-up, the Overview of its target library counts before and after the run', async () => {
    const home = codexHome()
    const b = await bench({ env: { SKILLBENCH_HOME: home } })
    const codexDir = path.join(home, '.codex', 'sessions')
    const lib = tempDir('skills')
    await b.call<LibraryInfo[]>('libraries.open', { path: lib })
    const real = fs.realpathSync(lib)
    await b.call('sessions.setTarget', { source: 'codex', dir: codexDir, library: real })

    const list = await b.call<TaskListResult>('sessions.tasks', { source: 'codex', dir: codexDir })
    const plans = Object.fromEntries(list.tasks.map((t) => [t.taskDir.replace(/^.*#/, '#'), t.plan]))
    expect(plans).toEqual({ '#1': { state: 'no-skill', why: 'greeting' }, '#2': { state: 'new' }, '#3': { state: 'new' } })
    const before = await b.call<OverviewResult>('overview.get', { library: real })
    expect([before.tasks, before.reflectedTasks, before.newTasks, before.noSkillTasks, before.noSkillWhy]).toEqual([3, 0, 2, 1, { greeting: 1 }])
    expect(before.sessionSources).toEqual([{ source: 'codex', dir: codexDir }])

    const summary = await summaryOf(b, await b.call<JobInfo>('sessions.reflect', { source: 'codex', dir: codexDir, library: real }))
    expect(summary.created).toHaveLength(1)
    expect(summary.skipped.map((s) => s.why)).toEqual(['greeting'])

    const after = await b.call<OverviewResult>('overview.get', { library: real })
    expect([after.tasks, after.reflectedTasks, after.newTasks, after.noSkillTasks]).toEqual([3, 2, 0, 1])
    const again = await b.call<TaskListResult>('sessions.tasks', { source: 'codex', dir: codexDir })
    expect(again.tasks.map((t) => t.plan?.state)).toEqual(['no-skill', 'reflected', 'reflected'])
  })

  it('an AGIAgent root: a greeting task is skipped with its reason in tasks.list, reflect and the Overview alike', async () => {
    const b = await bench()
    const greet = path.join(b.root, 'alice', 'output_20261106_090000')
    fs.mkdirSync(path.join(greet, 'logs'), { recursive: true })
    fs.writeFileSync(
      path.join(greet, 'logs', 'manager.out'),
      ['Received user requirement: 你好', '💬 你好！有什么可以帮你？', 'TASK_COMPLETED: 已回复问候🎉 Workflow completed!', ''].join('\n')
    )
    const alice = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    const list = await b.call<TaskListResult>('tasks.list', { root: b.root })
    const mine = list.tasks.filter((t) => t.user === 'alice')
    expect(mine.find((t) => t.taskDir === 'output_20261106_090000')!.plan).toEqual({ state: 'no-skill', why: 'greeting' })
    const fresh = mine.filter((t) => t.plan?.state === 'new').map((t) => t.taskDir)
    const overview = await b.call<OverviewResult>('overview.get', { library: alice })
    expect(overview.newTasks).toBe(fresh.length)
    expect(overview.noSkillWhy).toMatchObject({ greeting: 1 })

    const summary = await summaryOf(b, await b.call<JobInfo>('reflect.start', { root: b.root, user: 'alice' }))
    expect(summary.created.map((c) => c.taskDir).sort()).toEqual([...fresh].sort())
    expect(summary.skipped.find((s) => s.taskDir === 'output_20261106_090000')?.why).toBe('greeting')
    const after = await b.call<OverviewResult>('overview.get', { library: alice })
    expect(after.newTasks).toBe(0)
    expect(after.reflectedTasks).toBe(after.tasks - (after.noSkillTasks ?? 0))
    // a skill the run made (its file written, then the task's files backed up into it, milliseconds later) and not
    // changed since is "created" in the recent activity, never "updated"
    const made = new Set(summary.created.map((c) => c.skill_id))
    const stamps = summary.created.map((c) => /^updated_at: '?([^'\n]+)/m.exec(fs.readFileSync(c.path, 'utf8'))![1] !== /^created_at: '?([^'\n]+)/m.exec(fs.readFileSync(c.path, 'utf8'))![1])
    expect(stamps, 'a backup rewrote at least one new skill after its creation').toContain(true)
    const recent = after.recent.filter((r) => (r.kind === 'skill-created' || r.kind === 'skill-updated') && made.has(r.skill_id))
    expect(recent.map((r) => r.kind).sort()).toEqual(summary.created.map(() => 'skill-created'))
  })
})
