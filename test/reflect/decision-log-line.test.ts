/**
 * The reflection log's decision line by code (reflect.log_decided_*): the same English the log always had (the
 * line the old template string wrote, for every operation with and without its skill and reason), read back from
 * the log file by code with its params, and worded in Chinese by that code — what the app's recent activity shows.
 * A real offline reflection with decisions writes the file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { decisionLogLine } from '../../src/main/reflect/decision-log-line'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import type { DecisionOperation } from '../../src/main/reflect/types'
import { translateText } from '../../src/renderer/i18n/messages-errors'
import { messageRefOf } from '../../src/shared/message-match'
import { CALC_LOG, makeRoot } from './make-root'

/** The line as run-reflection.ts wrote it before it had a code. */
const oldLine = (r: { taskDir: string; operation: string; skill_id?: string; reason?: string }): string =>
  `Decision for ${r.taskDir}: ${r.operation}${r.skill_id ? ` (skill ${r.skill_id})` : ''}${r.reason ? ` - ${r.reason}` : ''}`

describe('decisionLogLine', () => {
  it('writes the words the log always had, each shape by its own code, and reads back to that code and its params', () => {
    const cases: [DecisionOperation, string | undefined, string | undefined, string][] = [
      ['create', undefined, undefined, 'reflect.log_decided_create'],
      ['create', undefined, 'no close skill (best 0.12)', 'reflect.log_decided_create_why'],
      ['enhance', '1700000000', undefined, 'reflect.log_decided_enhance'],
      ['enhance', '1700000000', 'close to "Python calculator" (similarity 0.71); adds what this task taught', 'reflect.log_decided_enhance_why'],
      ['none', undefined, undefined, 'reflect.log_decided_none'],
      ['none', undefined, 'the task is too trivial to reuse', 'reflect.log_decided_none_why'],
      ['none', '1700000000', undefined, 'reflect.log_decided_none_skill'],
      ['none', '1700000000', 'already covered by "Python calculator" (similarity 0.93) and the task went well', 'reflect.log_decided_none_skill_why']
    ]
    for (const [operation, skillId, reason, code] of cases) {
      const report = { taskDir: 'output_20260101_000001', operation, skill_id: skillId, reason }
      const line = decisionLogLine(report)
      expect(line.text, code).toBe(oldLine(report))
      expect(line.messageCode).toBe(code)
      expect(messageRefOf(line.text), line.text).toEqual({ messageCode: code, params: line.params })
    }
    // an empty reason (a model that gave none) is no reason, as before
    expect(decisionLogLine({ taskDir: 't', operation: 'create', reason: '' }).text).toBe('Decision for t: create')
  })

  it('is worded in Chinese by its code, the reason as it came (or translated when it is a message of the table)', () => {
    const zh = (r: Parameters<typeof decisionLogLine>[0]): string => translateText(decisionLogLine(r).text, 'zh')
    expect(zh({ taskDir: 'output_a', operation: 'create', reason: '最接近的技能「计算器」相似度仅 0.12' })).toBe('output_a 的决定：新建技能。理由：最接近的技能「计算器」相似度仅 0.12')
    expect(zh({ taskDir: 'output_a', operation: 'enhance', skill_id: '17', reason: 'pytest was missing' })).toBe('output_a 的决定：增强技能 17。理由：pytest was missing')
    expect(zh({ taskDir: 'output_a', operation: 'none', skill_id: '17' })).toBe('output_a 的决定：不做改动（技能 17）')
    expect(zh({ taskDir: 'output_a', operation: 'none' })).toBe('output_a 的决定：不做改动')
    expect(zh({ taskDir: 'output_a', operation: 'none', reason: 'folder not found: /x' })).toBe('output_a 的决定：不做改动。理由：找不到文件夹：/x')
  })
})

describe('the decision line of a real reflection', () => {
  it('is in the log file by code with its params, and reads in Chinese', async () => {
    const root = makeRoot([{ dir: 'bob/output_calc', log: CALC_LOG }])
    const s = await runReflection({ rootDir: root, decide: true }, defaultReflectionDeps())
    expect(s.decisions!.map((d) => [d.taskDir, d.operation])).toEqual([['output_calc', 'create']])
    const logs = path.join(libraryDirFor(root, 'bob'), 'logs')
    const text = fs.readdirSync(logs).map((f) => fs.readFileSync(path.join(logs, f), 'utf8')).join('')
    const line = text.split('\n').find((l) => l.includes(' - Decision for '))!
    const message = line.replace(/^.*? - INFO - /, '')
    const reason = s.decisions![0]!.reason!
    expect(reason).toBeTruthy()
    expect(message).toBe(`Decision for output_calc: create - ${reason}`)
    expect(messageRefOf(message)).toEqual({ messageCode: 'reflect.log_decided_create_why', params: { task: 'output_calc', reason } })
    expect(translateText(message, 'zh')).toBe(`output_calc 的决定：新建技能。理由：${reason}`)
    fs.rmSync(root, { recursive: true, force: true })
  })
})
