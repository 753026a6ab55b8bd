import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { reflectOffline } from '../../src/main/reflect/offline-reflector'
import { runReflection } from '../../src/main/reflect/run-reflection'
import { scanTask } from '../../src/main/scan/scan-root'
import { scanSessions } from '../../src/main/scan/sessions'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { listFiles } from './make-root'

const AGI = realPath('agiagent')

describe.skipIf(!HAS_REAL_DATA)('offline reflection on the real AGIAgent logs', () => {
  it('a repeated greeting session (9 × 你好, same-line completion markers)', async () => {
    const trace = await scanTask(path.join(AGI, 'agi-hub_AGIAgent', 'data_root_example', 'tianhaoyang', 'output_20260119_124253'))
    const d = reflectOffline(trace)
    expect(d.language).toBe('zh')
    expect(d.title).toBe('你好')
    expect(d.title).not.toMatch(/LLM client/)
    expect(d.body).toContain('**结果：** 已完成。')
    expect(d.body).toContain('未调用工具，直接作答。')
    expect(d.body).not.toContain('## 后续要求') // the same greeting nine times is not nine follow-ups
    expect(d.filesToBackup).toEqual([])
  })

  it('the client-mode joke log: no false interruption, Chinese, the stated preference', async () => {
    const trace = await scanTask(path.join(AGI, 'hzqjgthy_AGIAgent_thy', 'output_thy_test_project33'))
    const d = reflectOffline(trace)
    expect(d.title).toBe('写一个笑话，中文的')
    expect(d.body).not.toContain('中断')
    expect(d.userPreferences).toContain('中文的')
    expect(d.usageConditions).toBe('当需要完成类似任务时使用：你好，写一个笑话，中文的')
  })

  it('runs end to end on real tasks without touching the real data', async () => {
    const before = listFiles(AGI).map((f) => `${f}:${fs.statSync(path.join(AGI, f)).mtimeMs}`)
    const traces = await Promise.all([
      scanTask(path.join(AGI, 'agi-hub_AGIAgent', 'data_root_example', 'tianhaoyang', 'output_20260119_124253')),
      scanTask(path.join(AGI, 'hzqjgthy_AGIAgent_thy', 'output_thy_test_project33'))
    ])
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-real-reflect-'))
    const summary = await runReflection({ rootDir: root, traces }, defaultReflectionDeps())
    expect(summary.failed).toEqual([])
    // nine greetings and a joke told without any tool: neither is worth a skill, and each says why (issue 36)
    expect(summary.created).toEqual([])
    expect(summary.skipped.map((s) => [s.taskDir, s.why]).sort()).toEqual([
      ['output_20260119_124253', 'greeting'],
      ['output_thy_test_project33', 'no-work']
    ])
    expect(listFiles(AGI).map((f) => `${f}:${fs.statSync(path.join(AGI, f)).mtimeMs}`)).toEqual(before)
  })
})

describe.skipIf(!HAS_REAL_DATA)('offline reflection on real agent sessions', () => {
  it('every Claude Code and Codex task becomes a readable skill', async () => {
    const sources = [
      ['claude', realPath('sessions', 'claude_code')],
      ['codex', realPath('sessions', 'codex_cli')]
    ] as const
    let count = 0
    for (const [source, dir] of sources) {
      const { tasks } = await scanSessions({ source, dir })
      for (const t of tasks) {
        const d = reflectOffline(t)
        count++
        expect(d.title.length).toBeGreaterThan(0)
        expect(d.title.length).toBeLessThanOrEqual(50)
        expect(d.body).toMatch(/^# /)
        expect(d.body).toMatch(/## (Approach|方法步骤)/)
        // the agent's answer never adds top-level sections to the skill
        expect(d.body.split('\n').filter((l) => /^#{1,2} /.test(l)).every((l) => /^# |^## (Task|When to use|Approach|Pitfalls and fixes|Outputs|Follow-up requests|User preferences|Final answer|适用场景|方法步骤|踩坑与解决|产出文件|后续要求|用户偏好|最终答复)$/.test(l))).toBe(true)
        expect(d.body.split('\n').filter((l) => /^\s*```/.test(l)).length % 2).toBe(0)
      }
    }
    expect(count).toBeGreaterThan(5)
  })
})
