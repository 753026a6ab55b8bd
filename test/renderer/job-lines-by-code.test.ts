import { describe, expect, it } from 'vitest'
import { JobStore } from '../../src/renderer/api/job-store'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { codedLine } from '../../src/shared/error-codes'

describe('job lines are worded by their code in the app', () => {
  it('keeps the code of the latest line and of each task, and words them in Chinese without reading the English', () => {
    const store = new JobStore()
    const found = codedLine('reflect.found', { n: 3 })
    store.apply({ type: 'job.progress', progress: { jobId: 'j', kind: 'reflect', fraction: 0, stage: 'start', ...found } })
    const waiting = codedLine('reflect.waiting', { seconds: 12 })
    store.apply({ type: 'job.progress', progress: { jobId: 'j', kind: 'reflect', fraction: 0.2, stage: 'task-step', step: 'model', taskDir: 't1', ...waiting } })
    const job = store.getSnapshot().j!
    expect(job.messageRef).toEqual({ messageCode: 'reflect.waiting', params: { seconds: 12 } })
    expect(translateLine(job.tasks.t1!.messageRef, job.tasks.t1!.message, 'zh')).not.toBe(waiting.message)
    // the code decides, not the words: a line whose English was changed still reads by its code
    expect(translateLine(job.messageRef, 'some other English', 'zh')).toBe(translateLine(job.messageRef, waiting.message, 'zh'))
  })

  it('the job log keeps each line\'s task and code, so the log is worded by code as the status line is', () => {
    const store = new JobStore()
    const reading = codedLine('reflect.reading', { requests: 1, calls: 4, errors: 1 })
    store.apply({ type: 'job.progress', progress: { jobId: 'l', kind: 'reflect', fraction: 0.1, stage: 'task-step', step: 'read', taskDir: 'output_1', ...reading } })
    const [line] = store.getSnapshot().l!.lines
    expect(line).toEqual({ text: reading.message, taskDir: 'output_1', ref: { messageCode: 'reflect.reading', params: { requests: 1, calls: 4, errors: 1 } } })
    expect(translateLine(line!.ref, line!.text, 'zh')).toBe('读取轨迹：1 个请求，4 次工具调用，1 个错误')
  })

  it('a line without a code (an older build, a plain job line) falls back to its text', () => {
    const store = new JobStore()
    store.apply({ type: 'job.progress', progress: { jobId: 'k', kind: 'sync', fraction: 0, stage: 'check', message: 'Packing the objects' } })
    const job = store.getSnapshot().k!
    expect(job.messageRef).toBeUndefined()
    expect(translateLine(job.messageRef, job.message, 'zh')).toBe('Packing the objects')
    // a known line of an older build (no code sent) is still read back from its words
    expect(translateLine(undefined, 'Checking the repository', 'zh')).toBe('正在检查仓库')
  })
})
