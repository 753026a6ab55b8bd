/**
 * The Workspaces screen's "Reflect again" (reflect.start with force for a reflected task, as TaskDetail calls it)
 * runs the same reflection as `skillbench reflect --force`: the skill made from the task is kept as the one skill of
 * that task (left as it is when the new reflection adds nothing), never joined by a second skill of the same task.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiEvent, JobInfo, ReflectSummary, TaskListResult } from '../../src/shared/api'
import { benchesDisposedAfterEach, type TestBench } from './helpers'

const bench = benchesDisposedAfterEach()
const TASK = 'output_20261102_141500'

async function summaryOf(b: TestBench, job: JobInfo): Promise<ReflectSummary> {
  await b.wb.waitForJob(job.jobId)
  const done = b.events.find((e): e is Extract<ApiEvent, { type: 'job.done' }> => e.type === 'job.done' && e.jobId === job.jobId)!
  expect(done.state).toBe('done')
  return done.result as ReflectSummary
}

const skillFiles = (lib: string): string[] => fs.readdirSync(lib).filter((f) => /^skill_.*\.md$/.test(f)).sort()

describe('Reflect again (Workspaces)', () => {
  it('keeps one skill of the task: the same result leaves it as it is and says so', async () => {
    const b = await bench()
    const lib = path.join(b.root, 'alice', 'general', 'experience')
    const task = async () => (await b.call<TaskListResult>('tasks.list', { root: b.root })).tasks.find((t) => t.taskDir === TASK)!
    const reflect = async () => {
      const t = await task()
      return summaryOf(b, await b.call<JobInfo>('reflect.start', { root: b.root, tasks: [t.path], force: t.reflected }))
    }
    const first = await reflect()
    expect(first.created.map((c) => c.taskDir)).toEqual([TASK])
    expect((await task()).reflected).toBe(true)
    const files = skillFiles(lib)
    const made = files.filter((f) => fs.readFileSync(path.join(lib, f), 'utf8').includes(TASK))
    expect(made).toHaveLength(1)
    const bytes = fs.readFileSync(path.join(lib, made[0]!), 'utf8')

    const again = await reflect()
    expect(again.created).toEqual([])
    expect(again.skipped.map((s) => [s.taskDir, s.messageCode])).toEqual([[TASK, 'reflect.again_unchanged']])
    expect(skillFiles(lib)).toEqual(files)
    expect(fs.readFileSync(path.join(lib, made[0]!), 'utf8')).toBe(bytes)
    // the job's lines word it by code, as the app shows them
    expect(b.events.some((e) => e.type === 'job.progress' && e.progress.messageCode === 'reflect.again_unchanged' && e.progress.taskDir === TASK)).toBe(true)
  })
})
