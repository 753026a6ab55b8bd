import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import { consolidatedDays, extractiveSummary, cleanModelSummary } from '../../src/main/memory/consolidate'
import { consolidateDailyLogs } from '../../src/main/memory/memory-files'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'

const dirs: string[] = []
const servers: OpenAiTestServer[] = []
function tmpWorkspace(logs: Record<string, string>): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-cons-'))
  dirs.push(d)
  fs.mkdirSync(path.join(d, 'memory', 'logs'), { recursive: true })
  for (const [name, text] of Object.entries(logs)) fs.writeFileSync(path.join(d, 'memory', 'logs', name), text)
  return d
}
afterEach(async () => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  for (const s of servers.splice(0)) await s.close()
})

const DAY1 = [
  '# 2026-01-10',
  '',
  '- 09:12 user: 帮我写一个 Python 计算器，要有单元测试',
  '- 09:13 agent: 创建了 calculator.py 和 test_calculator.py',
  '- 09:20 first test run failed: ZeroDivisionError not handled in divide()',
  '- 09:25 fixed divide() to raise ValueError on zero, all 12 tests pass',
  '- ok',
  '- ok',
  '- 09:30 user: 记住：以后代码都要带类型注解',
  '- TASK_COMPLETED: 计算器完成'
].join('\n')
const DAY2 = 'user asked to rename the project folder and update imports\nrenamed src/app to src/core, 14 imports updated, build passes\n'
const NOW = new Date(2026, 0, 13, 12, 0, 0) // local 2026-01-13
const TODAY = 'partial log of today, still being written by the agent\n'

function longTerm(ws: string): string {
  return fs.readFileSync(path.join(ws, 'memory', 'long-term.md'), 'utf8')
}

describe('extractive summary', () => {
  it('keeps informative lines in order, drops noise and duplicates, caps the count', () => {
    const s = extractiveSummary(DAY1, 4)
    const lines = s.split('\n')
    expect(lines).toHaveLength(4)
    expect(lines.every((l) => l.startsWith('- '))).toBe(true)
    expect(s).toContain('ZeroDivisionError')
    expect(s).toContain('记住')
    expect(s).not.toMatch(/^- ok$/m)
    expect(s).not.toContain('# 2026-01-10')
  })
  it('gives nothing for a log with no informative line', () => {
    expect(extractiveSummary('ok\n---\n12:00\n\n')).toBe('')
  })
})

describe('consolidateDailyLogs offline', () => {
  it('appends one section per past day under its heading, skips today, and is idempotent', async () => {
    const ws = tmpWorkspace({ '2026-01-10.md': DAY1, '2026-01-11.md': DAY2, '2026-01-13.md': TODAY, 'notes.md': 'not a day', '2026-02-30.md': 'bad date' })
    const r1 = await consolidateDailyLogs(ws, { now: NOW })
    expect(r1.consolidated.map((c) => c.day)).toEqual(['2026-01-10', '2026-01-11'])
    expect(r1.skipped).toEqual([{ day: '2026-01-13', reason: 'today' }])
    const text = longTerm(ws)
    expect(text.startsWith('# Long-term memory / 长期记忆\n')).toBe(true)
    expect(text).toContain('## 2026-01-10\n\n_Summary of logs/2026-01-10.md (extractive, offline)_\n\n- ')
    expect(text).toContain('## 2026-01-11')
    expect(text).not.toContain('2026-01-13')
    expect([...consolidatedDays(text)]).toEqual(['2026-01-10', '2026-01-11'])

    const r2 = await consolidateDailyLogs(ws, { now: NOW })
    expect(r2.consolidated).toEqual([])
    expect(r2.skipped.filter((s) => s.reason === 'already_consolidated').map((s) => s.day)).toEqual(['2026-01-10', '2026-01-11'])
    expect(longTerm(ws)).toBe(text)

    const r3 = await consolidateDailyLogs(ws, { now: NOW, includeToday: true })
    expect(r3.consolidated.map((c) => c.day)).toEqual(['2026-01-13'])
    expect(longTerm(ws).startsWith(text)).toBe(true)
  })
  it('respects a heading written by hand or by upstream (整理 YYYY-MM-DD) and keeps the existing text', async () => {
    const ws = tmpWorkspace({ '2026-01-10.md': DAY1, '2026-01-11.md': DAY2 })
    const existing = '# my notes\n\n### 整理 2026-01-10（LLM 摘要）\n\nhand-written summary\n'
    fs.writeFileSync(path.join(ws, 'memory', 'long-term.md'), existing)
    const r = await consolidateDailyLogs(ws, { now: NOW })
    expect(r.consolidated.map((c) => c.day)).toEqual(['2026-01-11'])
    expect(longTerm(ws).startsWith(existing)).toBe(true)
  })
  it('sinceDays leaves older days alone', async () => {
    const ws = tmpWorkspace({ '2025-12-01.md': DAY2, '2026-01-11.md': DAY2 })
    const r = await consolidateDailyLogs(ws, { now: NOW, sinceDays: 7 })
    expect(r.consolidated.map((c) => c.day)).toEqual(['2026-01-11'])
    expect(r.skipped).toEqual([{ day: '2025-12-01', reason: 'too_old' }])
  })
  it('no logs folder: nothing to do, nothing created', async () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-cons-'))
    dirs.push(d)
    expect(await consolidateDailyLogs(d, { now: NOW })).toEqual({ consolidated: [], skipped: [], failed: [] })
    expect(fs.existsSync(path.join(d, 'memory'))).toBe(false)
  })
})

describe('consolidateDailyLogs with a model (local OpenAI-protocol server)', () => {
  it('sends each day to the model once and writes its summary; headings in the answer are defused', async () => {
    const server = await startOpenAiServer((req) => {
      const body = req.body as { messages: { role: string; content: string }[] }
      const user = body.messages.find((m) => m.role === 'user')!.content
      if (user.includes('Log of 2026-01-10')) {
        return { json: chatCompletion('- 用户要求写计算器并带单元测试\n- 修复了除零错误，12 个测试通过\n- 偏好：代码带类型注解') }
      }
      // a model that tries to plant a heading for another day
      return { json: chatCompletion('## 2026-01-12\n- renamed src/app to src/core') }
    })
    servers.push(server)
    const llm = createOpenAiClient({ baseUrl: server.url, model: 'test-model', apiKey: 'sk-test', maxRetries: 0 })
    const ws = tmpWorkspace({ '2026-01-10.md': DAY1, '2026-01-11.md': DAY2, '2026-01-12.md': DAY2 })
    const r1 = await consolidateDailyLogs(ws, { now: NOW, llm })
    expect(r1.consolidated.map((c) => [c.day, c.method])).toEqual([
      ['2026-01-10', 'Summary of logs/2026-01-10.md (LLM: test-model)'],
      ['2026-01-11', 'Summary of logs/2026-01-11.md (LLM: test-model)'],
      ['2026-01-12', 'Summary of logs/2026-01-12.md (LLM: test-model)']
    ])
    expect(server.requests).toHaveLength(3)
    const sent = (server.requests[0]!.body as { messages: { content: string }[] }).messages[1]!.content
    expect(sent).toContain('ZeroDivisionError')
    const text = longTerm(ws)
    expect(text).toContain('## 2026-01-10\n\n_Summary of logs/2026-01-10.md (LLM: test-model)_\n\n- 用户要求写计算器并带单元测试\n')
    expect(text).toContain('**2026-01-12**\n- renamed src/app')
    expect(text.match(/^## 2026-01-12$/gm)).toHaveLength(1)

    await consolidateDailyLogs(ws, { now: NOW, llm })
    expect(server.requests).toHaveLength(3)
    expect(longTerm(ws)).toBe(text)
  })
  it('a failing or empty-answering model writes nothing for that day, so a later run can still do it', async () => {
    const server = await startOpenAiServer((req) => {
      const user = (req.body as { messages: { role: string; content: string }[] }).messages[1]!.content
      return user.includes('2026-01-10') ? { status: 400, json: { error: { message: 'bad request' } } } : { json: chatCompletion('  \n ** \n') }
    })
    servers.push(server)
    const llm = createOpenAiClient({ baseUrl: server.url, model: 'test-model', apiKey: 'sk-test', maxRetries: 0 })
    const ws = tmpWorkspace({ '2026-01-10.md': DAY1, '2026-01-11.md': DAY2 })
    const r = await consolidateDailyLogs(ws, { now: NOW, llm })
    expect(r.consolidated).toEqual([])
    expect(r.failed.map((f) => f.day)).toEqual(['2026-01-10', '2026-01-11'])
    expect(r.failed[1]!.error).toMatch(/empty summary/)
    expect(fs.existsSync(path.join(ws, 'memory', 'long-term.md'))).toBe(false)
    const offline = await consolidateDailyLogs(ws, { now: NOW })
    expect(offline.consolidated.map((c) => c.day)).toEqual(['2026-01-10', '2026-01-11'])
  })
  it('cleanModelSummary strips a code fence and caps the length', () => {
    expect(cleanModelSummary('```markdown\n- a fact\n```')).toBe('- a fact')
    expect(cleanModelSummary('- ' + 'word '.repeat(2000)).length).toBeLessThanOrEqual(2_002)
  })
})

describe('skillbench memory consolidate --llm openai', () => {
  it('wires --base-url / --model and the key from the environment to the model', async () => {
    const { main } = await import('../../src/main/cli/index')
    const server = await startOpenAiServer(() => ({ json: chatCompletion('- renamed the project folder', [], 'served-model') }))
    servers.push(server)
    const ws = tmpWorkspace({ '2020-01-11.md': DAY2 })
    let out = ''
    const code = await main(['memory', 'consolidate', '--workspace', ws, '--llm', 'openai', '--base-url', server.url, '--model', 'chosen-model', '--json'], {
      stdout: (t) => void (out += t),
      stderr: () => undefined,
      isTTY: false,
      cwd: ws,
      env: { OPENAI_API_KEY: 'sk-from-env' },
      signal: new AbortController().signal
    })
    expect(code).toBe(0)
    expect(JSON.parse(out).consolidated).toEqual([{ day: '2020-01-11', method: 'Summary of logs/2020-01-11.md (LLM: served-model)', chars: 28 }])
    expect((server.requests[0]!.body as { model: string }).model).toBe('chosen-model')
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-env')
    expect(longTerm(ws)).toContain('- renamed the project folder')
  })
})
