/**
 * What a scan passes over is told by code beside its unchanged words (`skipped[]`: path, reason, messageCode,
 * params), for a session folder (a linked and a FIFO `.jsonl`, binary data, no JSON line, some torn lines) and for
 * an AGIAgent data root (a file and a FIFO named like a task, a link out of the root, a task without logs/, logs/
 * without a log, a log name on a FIFO). Real folders; the app words each in Chinese by its code.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { coded, englishText, type MessageCode } from '../../src/shared/error-codes'
import type { SkippedTask } from '../../src/shared/types'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { scanSessions } from '../../src/main/scan/sessions'
import { discoverTasks, resolveRootDir, ScanError } from '../../src/main/scan/discover'
import { scanTask } from '../../src/main/scan/scan-root'

let tmp: string
const haveMkfifo = spawnSync('mkfifo', ['--version']).status === 0
const mkfifo = (p: string): void => void spawnSync('mkfifo', [p])

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-skip-notes-coded-')))
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

const rec = (o: Record<string, unknown>): string => JSON.stringify({ sessionId: 's1', timestamp: '2026-11-20T10:00:00.000Z', cwd: '/work/p', ...o })

/** Each skipped entry by file name: its words, code, params and Chinese; every one re-renders its own English. */
function byName(skipped: SkippedTask[]): Record<string, [string, MessageCode | undefined, unknown, string]> {
  const out: Record<string, [string, MessageCode | undefined, unknown, string]> = {}
  for (const s of skipped) {
    expect(englishText({ messageCode: s.messageCode!, params: s.params! }), s.path).toBe(s.reason)
    out[path.basename(s.path)] = [s.reason, s.messageCode, s.params, translateMessage(s, '', 'zh')]
  }
  return out
}

const word = (code: MessageCode): { messageCode: MessageCode; params: object } => ({ messageCode: code, params: {} })

describe('a session scan tells what it did not read by code', () => {
  it('a link, a FIFO, binary data, no JSON line and torn lines: the same words, a code beside, Chinese', async () => {
    const project = path.join(tmp, 'projects', '-work-p')
    fs.mkdirSync(project, { recursive: true })
    const good = rec({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Rename photos by date' } })
    fs.writeFileSync(path.join(project, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl'), [good, '{"torn', '[1]'].join('\n') + '\n')
    fs.writeFileSync(path.join(project, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl'), Buffer.from([0, 1, 2, 3, 0, 10, 0, 5]))
    fs.writeFileSync(path.join(project, 'aaaaaaaa-0000-4000-8000-000000000003.jsonl'), 'not json\n"a string"\n')
    fs.symlinkSync(path.join(project, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl'), path.join(project, 'linked.jsonl'))
    if (haveMkfifo) mkfifo(path.join(project, 'pipe.jsonl'))
    const r = await scanSessions({ source: 'claude', dir: path.join(tmp, 'projects') })
    expect(r.tasks.length).toBeGreaterThan(0)
    const got = byName(r.skipped)
    expect(got['aaaaaaaa-0000-4000-8000-000000000001.jsonl']).toEqual([
      '2 line(s) that are not JSON objects skipped (torn or corrupt; the first at line 2); the rest of the file was read',
      'scan.bad_lines',
      { n: 2, line: 2 },
      '跳过了 2 行不是 JSON 对象的内容（截断或损坏；第一行在第 2 行）；文件其余部分已读取'
    ])
    expect(got['aaaaaaaa-0000-4000-8000-000000000002.jsonl']).toEqual(['binary data, not JSON lines: not a session file, not read', 'scan.binary', {}, '二进制数据，不是 JSON 行：不是会话文件，未读取'])
    expect(got['aaaaaaaa-0000-4000-8000-000000000003.jsonl']).toEqual([
      'no line is a JSON object (2 line(s), the first at line 1): not a session file, not read',
      'scan.no_json_lines',
      { n: 2, line: 1 },
      '没有一行是 JSON 对象（共 2 行，第一行在第 1 行）：不是会话文件，未读取'
    ])
    expect(got['linked.jsonl']).toEqual(['symbolic link: not followed', 'scan.link_not_followed', {}, '符号链接：不跟随'])
    if (haveMkfifo) expect(got['pipe.jsonl']).toEqual(['not a regular file (a FIFO): not read', 'scan.not_regular', { what: word('scan.what_fifo') }, '不是普通文件（FIFO）：未读取'])
    expect(Object.keys(got)).toHaveLength(haveMkfifo ? 5 : 4)
  })

  it('an overlong line is told in the words it had (MB rounded), by code', () => {
    // 32 MB lines are too slow to write here: the words the old code built, against the code's English
    const mb = (n: number): string => `${Math.round(n / (1024 * 1024))} MB`
    const old = `3 line(s) longer than ${mb(32 * 1024 * 1024)} skipped (the longest ${mb(300 * 1024 * 1024 + 5)} characters); the rest of the file was read`
    const now = coded('scan.long_lines', { n: 3, maxMb: 32, longestMb: 300 })
    expect(now.text).toBe(old)
    expect(translateMessage(now, '', 'zh')).toBe('跳过了 3 行超过 32 MB 的内容（最长 300 MB 字符）；文件其余部分已读取')
  })
})

describe('a data root scan tells what it passed over by code', () => {
  it('a file and a FIFO named like a task, a link out, no logs/, no log, a log on a FIFO', async () => {
    const root = path.join(tmp, 'root')
    const outside = path.join(tmp, 'outside', 'output_away')
    fs.mkdirSync(path.join(outside, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(outside, 'logs', 'manager.out'), 'x\n')
    const alice = path.join(root, 'alice')
    fs.mkdirSync(path.join(alice, 'output_ok', 'logs'), { recursive: true })
    fs.writeFileSync(path.join(alice, 'output_ok', 'logs', 'manager.out'), 'Task: rename photos\n')
    fs.writeFileSync(path.join(alice, 'output_file'), 'not a folder\n')
    fs.symlinkSync(outside, path.join(alice, 'output_link'))
    fs.mkdirSync(path.join(alice, 'output_nologs'))
    fs.mkdirSync(path.join(alice, 'output_emptylogs', 'logs'), { recursive: true })
    if (haveMkfifo) {
      mkfifo(path.join(alice, 'output_fifo'))
      fs.mkdirSync(path.join(alice, 'output_piped', 'logs'), { recursive: true })
      mkfifo(path.join(alice, 'output_piped', 'logs', 'manager.out'))
    }
    const d = await discoverTasks(root)
    expect(d.tasks.map((t) => path.basename(t.path))).toEqual(['output_ok'])
    const got = byName(d.skipped)
    expect(got['output_file']).toEqual(['a file, not a task folder', 'scan.file_not_task', {}, '是文件，不是任务文件夹'])
    expect(got['output_link']).toEqual(['symlink pointing outside the data root (not followed)', 'scan.link_outside_root', {}, '指向数据根目录之外的符号链接（不跟随）'])
    expect(got['output_nologs']).toEqual(['no logs/ folder', 'scan.no_logs', {}, '没有 logs/ 文件夹'])
    expect(got['output_emptylogs']).toEqual(['logs/ has no manager.out or agent_*.out', 'scan.no_agent_logs', {}, 'logs/ 中没有 manager.out 或 agent_*.out'])
    if (haveMkfifo) {
      expect(got['output_fifo']).toEqual(['not a folder (a FIFO): not read', 'scan.not_folder', { what: word('scan.what_fifo') }, '不是文件夹（FIFO）：未读取'])
      expect(got['manager.out']).toEqual(['a log name on something that is not a file (a FIFO, a socket): not read', 'scan.log_not_file', {}, '日志名对应的不是文件（FIFO、套接字）：未读取'])
      // the task whose only log is a FIFO has no log either
      expect(got['output_piped']).toEqual(['logs/ has no manager.out or agent_*.out', 'scan.no_agent_logs', {}, 'logs/ 中没有 manager.out 或 agent_*.out'])
    }
  })
})

describe('a scan that cannot start says why by code', () => {
  /** The ScanError a call throws: its words, its code and params, its Chinese (English re-rendered from the code). */
  async function failure(run: () => Promise<unknown>): Promise<[string, MessageCode, unknown, string]> {
    const err = await run().then(
      () => null,
      (e: unknown) => e
    )
    expect(err).toBeInstanceOf(ScanError)
    const e = err as ScanError
    expect(englishText(e)).toBe(e.message)
    return [e.message, e.messageCode, e.params, translateMessage(e, '', 'zh')]
  }

  it('a missing root, a file as root, a missing session folder or config file, a task without logs', async () => {
    const missing = path.join(tmp, 'nope')
    const file = path.join(tmp, 'a-file')
    fs.writeFileSync(file, 'x\n')
    const task = path.join(tmp, 'alone', 'output_nologs')
    fs.mkdirSync(task, { recursive: true })
    expect(await failure(() => discoverTasks(missing))).toEqual([`data root not found: ${missing}`, 'scan.root_not_found', { root: missing }, `找不到数据根目录：${missing}`])
    expect(await failure(() => discoverTasks(file))).toEqual([`data root is not a folder: ${file}`, 'scan.root_not_folder', { root: file }, `数据根目录不是文件夹：${file}`])
    expect(await failure(() => scanSessions({ source: 'codex', dir: missing }))).toEqual([`session folder not found: ${missing}`, 'session.folder_not_found', { dir: missing }, `找不到会话文件夹：${missing}`])
    expect(await failure(async () => resolveRootDir({ configPath: path.join(missing, 'config.txt') }))).toEqual([
      `config file not found: ${path.join(missing, 'config.txt')}`,
      'scan.config_not_found',
      { file: path.join(missing, 'config.txt') },
      `找不到配置文件：${path.join(missing, 'config.txt')}`
    ])
    expect(await failure(() => scanTask(task))).toEqual([`${task}: no logs/ folder`, 'scan.task_not_parsed', { dir: task, reason: word('scan.no_logs') }, `${task}：没有 logs/ 文件夹`])
  })
})
