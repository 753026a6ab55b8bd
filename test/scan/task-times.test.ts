/**
 * Big-log honesty and task times (issue 12): the parser counts every tool call even past its cap and records
 * where each kept call starts in its log; task times come from the task itself (folder name, session records).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgiAgentLogParser, parseAgiAgentLog, PARSER_LIMITS, type LogParse } from '../../src/main/scan/agiagent-parser'
import { ScanCache } from '../../src/main/scan/cache'
import { parseClaudeSession } from '../../src/main/scan/claude-code'
import { parseCodexRollout } from '../../src/main/scan/codex-cli'
import { scanRoot, scanTask } from '../../src/main/scan/scan-root'
import { startedAtFromName, startedAtFromStatus } from '../../src/main/scan/task-trace'

let tmp: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-times-'))
})
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

const call = (i: number): string => `<invoke name="run_terminal_cmd">\n<parameter name="command">echo ${i}</parameter>\n</invoke>\n`

describe('tool calls past the cap', () => {
  it('keeps the first 20,000, counts them all, and knows the byte offset of each kept one in any chunking', () => {
    const total = PARSER_LIMITS.maxToolCalls + 1_234
    const head = 'Received user requirement: loop a lot 日志\n'
    const text = head + Array.from({ length: total }, (_, i) => call(i)).join('') + 'TASK_COMPLETED\n'
    const bytes = Buffer.from(text)
    const whole = parseAgiAgentLog(bytes)
    expect(whole.toolCalls).toHaveLength(PARSER_LIMITS.maxToolCalls)
    expect(whole.toolCallsTotal).toBe(total)
    const third = whole.toolCalls[2]!
    expect(bytes.subarray(third.offset!, third.offset! + 32).toString()).toBe('<invoke name="run_terminal_cmd">')
    expect(bytes.subarray(third.offset!).toString().split('</invoke>')[0]).toContain('echo 2')
    expect(third.params.command).toBe('echo 2')
    // fed in odd-sized chunks, the offsets are the same
    const parser = new AgiAgentLogParser('manager')
    for (let at = 0; at < bytes.length; at += 777) parser.feed(bytes.subarray(at, at + 777))
    const chunked = parser.finish()
    expect(chunked.toolCalls.map((c) => c.offset)).toEqual(whole.toolCalls.map((c) => c.offset))
    expect(chunked.toolCallsTotal).toBe(total)
  })

  it('says so in the task trace, and the cache keeps counts and offsets', async () => {
    const task = path.join(tmp, 'root', 'alice', 'output_20260301_101500', 'logs')
    fs.mkdirSync(task, { recursive: true })
    const total = PARSER_LIMITS.maxToolCalls + 5
    fs.writeFileSync(path.join(task, 'manager.out'), 'Received user requirement: x\n' + Array.from({ length: total }, (_, i) => call(i)).join(''))
    const file = path.join(tmp, 'cache.bin')
    const cache = new ScanCache<LogParse>(file)
    const first = await scanRoot({ rootDir: path.join(tmp, 'root'), cache })
    expect(first.tasks[0]!.toolCallsTotal).toBe(total)
    await cache.save()
    const reloaded = new ScanCache<LogParse>(file)
    await reloaded.load()
    expect(reloaded.size).toBe(1)
    const again = await scanRoot({ rootDir: path.join(tmp, 'root'), cache: reloaded })
    expect(again.tasks[0]!.toolCallsTotal).toBe(total)
    expect(again.tasks[0]!.toolCalls[1]!.offset).toBe(first.tasks[0]!.toolCalls[1]!.offset)
  })
})

const REAL_UNDATED = path.resolve('../shared/data/real/agiagent/hzqjgthy_AGIAgent_thy/output_thy_test_project33')

describe('task times from the task itself', () => {
  it('reads start_time of .agia_spawn_manager_status.json as local time, and nothing else', () => {
    expect(startedAtFromStatus('{"start_time": "2026-04-11T23:50:43.861109"}')).toBe(new Date(2026, 3, 11, 23, 50, 43, 861).getTime())
    expect(startedAtFromStatus('{"start_time": "2026-04-11 23:50:43"}')).toBe(new Date(2026, 3, 11, 23, 50, 43).getTime())
    expect(startedAtFromStatus('{"start_time": "2026-02-31T10:00:00"}')).toBeUndefined()
    expect(startedAtFromStatus('{"start_time": 5}')).toBeUndefined()
    expect(startedAtFromStatus('null')).toBeUndefined()
    expect(startedAtFromStatus('{not json')).toBeUndefined()
  })

  it.skipIf(!fs.existsSync(REAL_UNDATED))('dates a real undated AGIAgent task by its status file, not its logs\' mtime', async () => {
    const trace = await scanTask(REAL_UNDATED, { cache: new ScanCache<LogParse>() })
    expect(trace.startedAt).toBe(new Date(2026, 3, 11, 23, 50, 43, 861).getTime())
    expect(trace.startedAt).not.toBe(trace.mtime)
  })

  it('uses the status file of an undated copy, and the name wins over it; a linked status file is ignored', async () => {
    const mk = (name: string, status: string, link = false): void => {
      const dir = path.join(tmp, 'root', 'u', name)
      fs.mkdirSync(path.join(dir, 'logs'), { recursive: true })
      fs.writeFileSync(path.join(dir, 'logs', 'manager.out'), 'Received user requirement: hi\nTASK_COMPLETED\n')
      const file = path.join(dir, '.agia_spawn_manager_status.json')
      if (link) {
        fs.writeFileSync(path.join(tmp, 'outside.json'), status)
        fs.symlinkSync(path.join(tmp, 'outside.json'), file)
      } else {
        fs.writeFileSync(file, status)
      }
    }
    mk('output_undated', '{"start_time": "2025-12-24T08:30:00.5"}')
    mk('output_20260101_090000', '{"start_time": "2025-12-24T08:30:00"}')
    mk('output_linked', '{"start_time": "2025-12-24T08:30:00"}', true)
    const { tasks } = await scanRoot({ rootDir: path.join(tmp, 'root'), cache: new ScanCache<LogParse>() })
    const by = new Map(tasks.map((t) => [t.taskDir, t]))
    expect(by.get('output_undated')!.startedAt).toBe(new Date(2025, 11, 24, 8, 30, 0, 500).getTime())
    expect(by.get('output_20260101_090000')!.startedAt).toBe(new Date(2026, 0, 1, 9, 0, 0).getTime())
    expect(by.get('output_linked')!.startedAt).toBeUndefined()
  })

  it('reads output_YYYYMMDD_HHMMSS as local time, and nothing else', () => {
    expect(startedAtFromName('output_20260301_101500')).toBe(new Date(2026, 2, 1, 10, 15, 0).getTime())
    expect(startedAtFromName('output_20260301_101500_2')).toBe(new Date(2026, 2, 1, 10, 15, 0).getTime())
    expect(startedAtFromName('output_thy_test_project33')).toBeUndefined()
    expect(startedAtFromName('output_20260231_101500')).toBeUndefined()
    expect(startedAtFromName('output_20260301_256000')).toBeUndefined()
  })

  it('dates copied AGIAgent tasks by their names, whatever the files\' times', async () => {
    for (const name of ['output_20260101_090000', 'output_20260305_170000']) {
      fs.mkdirSync(path.join(tmp, 'root', 'u', name, 'logs'), { recursive: true })
      fs.writeFileSync(path.join(tmp, 'root', 'u', name, 'logs', 'manager.out'), 'Received user requirement: hi\n')
      fs.utimesSync(path.join(tmp, 'root', 'u', name), new Date(), new Date())
    }
    const { tasks } = await scanRoot({ rootDir: path.join(tmp, 'root'), cache: new ScanCache() })
    expect(tasks.map((t) => [t.taskDir, new Date(t.startedAt!).getMonth()])).toEqual(expect.arrayContaining([['output_20260101_090000', 0], ['output_20260305_170000', 2]]))
  })

  it('dates each task of a Claude Code session by its request, and knows each call\'s line', async () => {
    const file = path.join(tmp, 'p', 's.jsonl')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const records = [
      { type: 'user', timestamp: '2026-02-10T21:11:56.906Z', message: { role: 'user', content: 'first request' } },
      { type: 'assistant', timestamp: '2026-02-10T21:12:00.000Z', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] } },
      { type: 'user', timestamp: '2026-02-11T08:00:00.000Z', message: { role: 'user', content: 'second request' } },
      { type: 'assistant', timestamp: '2026-02-11T08:00:05.000Z', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'ls' } }] } }
    ]
    fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const tasks = await parseClaudeSession(file)
    expect(tasks.map((t) => t.startedAt)).toEqual([Date.parse('2026-02-10T21:11:56.906Z'), Date.parse('2026-02-11T08:00:00.000Z')])
    expect(tasks.map((t) => t.toolCalls.map((c) => c.line))).toEqual([[2], [4]])
  })

  it('dates a Codex rollout task by its record times, and knows each call\'s line', async () => {
    const file = path.join(tmp, 'rollout-2026-03-02T10-00-00-x.jsonl')
    const records = [
      { timestamp: '2026-03-02T10:00:00.000Z', type: 'session_meta', payload: { id: 'x', cwd: '/repo' } },
      { timestamp: '2026-03-02T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'back up the photos' } },
      { timestamp: '2026-03-02T10:00:02.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"rsync"}', call_id: 'c1' } }
    ]
    fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const tasks = await parseCodexRollout(file)
    expect(tasks[0]!.startedAt).toBe(Date.parse('2026-03-02T10:00:01.000Z'))
    expect(tasks[0]!.toolCalls[0]!.line).toBe(3)
  })
})
