import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import type { ReflectionEvent } from '../../src/main/reflect/types'
import { openLibrary } from '../../src/main/store/library'
import { loadPlanOrEmpty } from '../../src/main/review/plan'
import { codedLine } from '../../src/shared/error-codes'
import { translateLine, translateText } from '../../src/renderer/i18n/messages-errors'
import { messageRefOf } from '../../src/shared/message-match'
import type { TaskTrace } from '../../src/shared/types'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { CALC_LOG, JOKE_LOG, SCRAPER_LOG, listFiles, makeRoot, skillFiles } from './make-root'

const KEY = 'sk-live-TOPSECRET-abcdef0123456789'
let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function standardRoot(): string {
  return makeRoot([
    { dir: 'alice/output_20260101_000001', log: CALC_LOG, workspace: { 'calc.py': 'def add(a, b): return a + b\n', 'data.json': '{}' }, ageSec: 300 },
    { dir: 'alice/output_20260101_000002', log: SCRAPER_LOG, workspace: { 'scrape.py': 'import requests\n' }, ageSec: 100 },
    { dir: 'output_thy_test_project33', log: JOKE_LOG, ageSec: 200 }
  ])
}

function llmFor(url: string, extra: Record<string, unknown> = {}) {
  return createOpenAiClient({ baseUrl: url, model: 'reflect-model', apiKey: KEY, retryBaseMs: 5, retryMaxMs: 10, ...extra })
}

const GOOD_ANSWER = [
  'Python calculator with pytest',
  '',
  'The user asked for a calculator. Installing pytest first avoids the import error.',
  '',
  'FILES_TO_BACKUP:',
  'calc.py',
  '',
  'USAGE_CONDITIONS: when someone needs a tested Python calculator'
].join('\n')

describe('runReflection offline', () => {
  it('writes one skill per task into the user library, newest first, and logs in the upstream format', async () => {
    const root = standardRoot()
    const events: ReflectionEvent[] = []
    const summary = await runReflection({ rootDir: root, onEvent: (e) => events.push(e) }, defaultReflectionDeps())
    expect(summary.failed).toEqual([])
    // newest first by the task's own time: the folder name's date when it has one, else the files' time (now)
    expect(summary.created.map((c) => c.taskDir)).toEqual(['output_20260101_000002', 'output_20260101_000001'])
    // a joke answered without any tool is no work a skill could teach (issue 36): skipped, saying why
    expect(summary.skipped).toEqual([{ taskDir: 'output_thy_test_project33', reason: 'no work done', messageCode: 'reflect.why_no_work', params: {}, why: 'no-work' }])
    const alice = libraryDirFor(root, 'alice')
    const def = libraryDirFor(root, '')
    expect(def).toBe(path.join(root, 'default', 'general', 'experience'))
    expect(skillFiles(alice)).toHaveLength(2)
    expect(fs.existsSync(def)).toBe(false)

    const lib = await openLibrary(alice)
    const { skills } = await lib.list()
    const calc = skills.find((s) => s.task_directories[0] === 'output_20260101_000001')!
    expect(calc.title).toBe('Write a Python calculator with unit tests')
    expect(calc.quality_index).toBe(0.5)
    expect(calc.body).toContain('No module named pytest — fixed by running `run_terminal_cmd` again')
    expect(events[0]).toMatchObject({ kind: 'start', total: 3, message: 'Found 3 tasks to process' })
    // tasks run a few at once: the numbering is the newest-first order, the events may interleave
    expect(events.filter((e) => e.kind === 'task-start').map((e) => e.message).sort()).toEqual([
      '[1/3] Processing output_20260101_000002...',
      '[2/3] Processing output_20260101_000001...'
    ])
    expect(events.find((e) => e.kind === 'task-skipped')).toMatchObject({ taskDir: 'output_thy_test_project33', message: 'No skill: no work done' })
    const done = events.filter((e) => e.kind === 'task-done')
    expect(done.every((e) => e.skillPath && fs.existsSync(e.skillPath))).toBe(true)
    expect(events[events.length - 1]!.kind).toBe('done')

    const logs = fs.readdirSync(path.join(alice, 'logs'))
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatch(/^task_reflection_\d{8}\.log$/)
    const lines = fs.readFileSync(path.join(alice, 'logs', logs[0]!), 'utf8').trim().split('\n')
    expect(lines.length).toBeGreaterThanOrEqual(4)
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - (INFO|ERROR) - .+/)
    expect(lines.some((l) => l.includes('Skill generated:'))).toBe(true)
    // every line is a message of the table, so the Overview's recent activity words it in the reader's language
    expect(lines.some((l) => l.endsWith('Backed up 1 file(s) for output_20260101_000001'))).toBe(true)
    for (const line of lines) {
      const text = line.replace(/^.*? - (INFO|ERROR) - /, '')
      expect(messageRefOf(text), text).not.toBeNull()
    }
    expect(translateText('Backed up 1 file(s) for output_20260101_000001', 'zh')).toBe('已为 output_20260101_000001 备份 1 个文件')
  })

  it('backs up the code and documents the task wrote (copy_skill_files rules), not configs', async () => {
    const root = makeRoot([
      { dir: 'alice/output_20260101_000001', log: CALC_LOG, workspace: { 'calc.py': 'def add(a, b): return a + b\n', 'data.json': '{}' } }
    ])
    const summary = await runReflection({ rootDir: root }, defaultReflectionDeps())
    expect(summary.created).toHaveLength(1)
    const lib = libraryDirFor(root, 'alice')
    expect(listFiles(path.join(lib, 'codes'))).toEqual(['task_20260101_000001/calc.py'])
    const skill = (await (await openLibrary(lib)).list()).skills[0]!
    expect(skill.related_code).toBe('codes/task_20260101_000001/calc.py')
  })

  it('a second run creates nothing new; --force reflects again; a legacy skill counts as reflected', async () => {
    const root = standardRoot()
    const deps = defaultReflectionDeps()
    await runReflection({ rootDir: root }, deps)
    const before = listFiles(root).filter((f) => f.endsWith('.md'))
    const second = await runReflection({ rootDir: root }, deps)
    expect(second.created).toEqual([])
    // the English as before, the code beside it (the CLI counts and the app words them by it)
    expect(second.skipped.map((s) => [s.reason, s.messageCode, s.params]).sort()).toEqual([
      ['already reflected', 'reflect.already', {}],
      ['already reflected', 'reflect.already', {}],
      ['no work done', 'reflect.why_no_work', {}]
    ])
    expect(listFiles(root).filter((f) => f.endsWith('.md'))).toEqual(before)

    // retire one skill: still reflected
    const alice = await openLibrary(libraryDirFor(root, 'alice'))
    const first = (await alice.list()).skills[0]!
    await alice.moveToLegacy(first.skill_id)
    const third = await runReflection({ rootDir: root }, deps)
    expect(third.created).toEqual([])

    // --force: the retired skill's task gets a new skill; the active skill's task is reflected again into that skill,
    // whose text the same offline reflection leaves as it is (never a second skill of the same task)
    const forced = await runReflection({ rootDir: root, force: true, user: 'alice' }, deps)
    expect(forced.created).toHaveLength(1)
    expect(forced.skipped.map((s) => s.messageCode)).toEqual(['reflect.again_unchanged'])
    expect((await alice.list()).skills).toHaveLength(2)
  })

  it('every skipped entry carries its code beside its unchanged English: the scan\'s folders and the already reflected', async () => {
    const root = standardRoot()
    // a folder with no logs/, one whose logs/ has no agent log, a file named like a task
    fs.mkdirSync(path.join(root, 'alice', 'output_nologs'))
    fs.mkdirSync(path.join(root, 'alice', 'output_emptylogs', 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'output_stray'), 'not a folder\n')
    // a socket named like a task: its reason nests a coded word
    const socket = net.createServer()
    await new Promise<void>((resolve) => socket.listen(path.join(root, 'output_sock'), resolve))
    const deps = defaultReflectionDeps()
    await runReflection({ rootDir: root }, deps)
    const again = await runReflection({ rootDir: root }, deps).finally(() => new Promise((resolve) => socket.close(resolve)))
    const byDir = Object.fromEntries(again.skipped.map((s) => [s.taskDir, s]))
    expect(byDir).toEqual({
      output_emptylogs: { taskDir: 'output_emptylogs', reason: 'logs/ has no manager.out or agent_*.out', messageCode: 'scan.no_agent_logs', params: {} },
      output_nologs: { taskDir: 'output_nologs', reason: 'no logs/ folder', messageCode: 'scan.no_logs', params: {} },
      output_stray: { taskDir: 'output_stray', reason: 'a file, not a task folder', messageCode: 'scan.file_not_task', params: {} },
      output_sock: { taskDir: 'output_sock', reason: 'not a folder (a socket): not read', messageCode: 'scan.not_folder', params: { what: { messageCode: 'scan.what_socket', params: {} } } },
      output_20260101_000001: { taskDir: 'output_20260101_000001', reason: 'already reflected', messageCode: 'reflect.already', params: {} },
      output_20260101_000002: { taskDir: 'output_20260101_000002', reason: 'already reflected', messageCode: 'reflect.already', params: {} },
      output_thy_test_project33: { taskDir: 'output_thy_test_project33', reason: 'no work done', messageCode: 'reflect.why_no_work', params: {}, why: 'no-work' }
    })
    // the app words each by its code
    expect(again.skipped.map((s) => translateLine(s, s.reason, 'zh')).sort()).toEqual(['logs/ 中没有 manager.out 或 agent_*.out', '已反思过', '已反思过', '是文件，不是任务文件夹', '没有 logs/ 文件夹', '没有做实际工作', '不是文件夹（套接字）：未读取'].sort())
  })

  it('filters by user and task', async () => {
    const root = standardRoot()
    const deps = defaultReflectionDeps()
    const s1 = await runReflection({ rootDir: root, user: 'default' }, deps)
    expect(s1.created).toEqual([])
    expect(s1.skipped.map((s) => s.taskDir)).toEqual(['output_thy_test_project33'])
    const s2 = await runReflection({ rootDir: root, tasks: ['output_20260101_000001'] }, deps)
    expect(s2.created.map((c) => c.taskDir)).toEqual(['output_20260101_000001'])
  })

  it('evolveMemory learns from the run\'s own tasks, asks each library\'s workspace by (library, user), reports a user with none', async () => {
    const said = (log: string, pref: string) => log.replace(/^(Received user requirement: .*)$/m, `$1 记住：${pref}。`)
    const root = makeRoot([
      { dir: 'alice/output_20260101_000001', log: said(CALC_LOG, '缩进 4 空格'), ageSec: 300 },
      { dir: 'alice/output_20260101_000002', log: said(SCRAPER_LOG, '代码注释用中文'), ageSec: 100 },
      { dir: 'bob/output_20260101_000003', log: said(CALC_LOG, '回答用英文'), ageSec: 200 }
    ])
    const asked: string[][] = []
    const workspace = async (library: string, user: string): Promise<string | null> => {
      asked.push([library, user])
      return user === 'alice' ? path.join(root, 'alice') : null
    }
    const tasks = ['output_20260101_000002', 'output_20260101_000003']
    const summary = await runReflection({ rootDir: root, tasks, evolveMemory: { workspace, lang: 'zh' } }, defaultReflectionDeps())
    expect(summary.created.map((c) => c.taskDir).sort()).toEqual(tasks)
    expect(asked.sort()).toEqual([
      [libraryDirFor(root, 'alice'), 'alice'],
      [libraryDirFor(root, 'bob'), 'bob']
    ])
    // bob has a library now but no memory folder: said once, as a coded line and a warning; the run is not failed
    const nowhere = codedLine('memory.auto_no_library', { user: 'bob' })
    expect(summary.memory?.problems).toEqual([nowhere])
    expect(summary.warnings).toContain(nowhere.message)
    expect(summary.failed).toEqual([])
    // alice learned from her chosen task only (not from the one left out of the run)
    const plan = await loadPlanOrEmpty(fs.realpathSync(libraryDirFor(root, 'alice')))
    const memory = plan.proposals.filter((p) => p.kind === 'memory')
    expect(memory.map((p) => p.id).sort()).toEqual([...summary.memory!.proposed].sort())
    const written = memory.flatMap((p) => p.changes.map((c) => c.after ?? '')).join('\n')
    expect(written).toContain('代码注释用中文')
    expect(written).not.toContain('缩进')
    expect((await loadPlanOrEmpty(fs.realpathSync(libraryDirFor(root, 'bob')))).proposals.filter((p) => p.kind === 'memory')).toEqual([])
  })

  it('one bad task never stops the run', async () => {
    const root = standardRoot()
    const deps = defaultReflectionDeps()
    const scanned = await deps.scan({ rootDir: root })
    const bad = { ...scanned.tasks[0]!, taskDir: 'output_broken', toolCalls: null } as unknown as TaskTrace
    const summary = await runReflection({ rootDir: root, traces: [bad, ...scanned.tasks] }, deps)
    expect(summary.failed.map((f) => f.taskDir)).toEqual(['output_broken'])
    expect(summary.created).toHaveLength(2)
  })

  it('cancel stops taking tasks and leaves a consistent library', async () => {
    const root = makeRoot(
      Array.from({ length: 40 }, (_, i) => ({ dir: `bob/output_2026010${String(i).padStart(2, '0')}`, log: CALC_LOG, ageSec: i }))
    )
    const ctl = new AbortController()
    const summary = await runReflection(
      { rootDir: root, signal: ctl.signal, onEvent: (e) => e.kind === 'task-done' && ctl.abort() },
      defaultReflectionDeps()
    )
    expect(summary.cancelled).toBe(true)
    expect(summary.created.length).toBeGreaterThanOrEqual(1)
    // at most the tasks already in flight (8 at once offline) finish after the cancel
    expect(summary.created.length).toBeLessThanOrEqual(9)
    expect(summary.failed).toEqual([])
    const lib = await openLibrary(libraryDirFor(root, 'bob'))
    const listed = await lib.list()
    expect(listed.errors).toEqual([])
    expect(listed.skills.map((s) => s.task_directories[0]).sort()).toEqual(summary.created.map((c) => c.taskDir).sort())
    expect(listFiles(lib.root).some((f) => f.includes('tmp'))).toBe(false)
  })
})

describe('runReflection with a model (local OpenAI-protocol server)', () => {
  it('sends the right request and writes the skill from the answer', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion(GOOD_ANSWER, [], 'reflect-model') }))
    const root = makeRoot([{ dir: 'alice/output_calc', log: CALC_LOG, workspace: { 'calc.py': 'x = 1\n' } }])
    const summary = await runReflection({ rootDir: root, mode: 'openai' }, defaultReflectionDeps({ llm: llmFor(server.url), secrets: [KEY] }))
    expect(summary.failed).toEqual([])
    expect(summary.created).toHaveLength(1)
    const req = server.requests[0]!
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`)
    const body = req.body as { model: string; messages: { role: string; content: string }[] }
    expect(body.model).toBe('reflect-model')
    expect(body.messages[0]!.content).toContain('FILES_TO_BACKUP:')
    expect(body.messages[1]!.content).toContain('Write a Python calculator with unit tests')
    expect(body.messages[1]!.content).toContain('No module named pytest')

    const { skills } = await (await openLibrary(libraryDirFor(root, 'alice'))).list()
    expect(skills).toHaveLength(1)
    // the title says what was asked (issue 36), the model's heading stays in the body
    expect(skills[0]!.title).toBe('Write a Python calculator with unit tests')
    expect(skills[0]!.usage_conditions).toBe('when someone needs a tested Python calculator')
    expect(skills[0]!.body).toContain('Installing pytest first')
    expect(skills[0]!.body).not.toContain('FILES_TO_BACKUP')
    expect(skills[0]!.task_directories).toEqual(['output_calc'])
  })

  it('retries a 500 then succeeds', async () => {
    server = await startOpenAiServer((_r, i) => (i === 0 ? { status: 500, json: { error: { message: 'x' } } } : { json: chatCompletion(GOOD_ANSWER) }))
    const root = makeRoot([{ dir: 'alice/output_calc', log: CALC_LOG }])
    const summary = await runReflection({ rootDir: root, mode: 'openai' }, defaultReflectionDeps({ llm: llmFor(server.url) }))
    expect(summary.created).toHaveLength(1)
    expect(server.requests).toHaveLength(2)
  })

  it('persistent 500: the task fails, no skill file is left, the key is in no log or error', async () => {
    server = await startOpenAiServer(() => ({ status: 500, json: { error: { message: `upstream failed for key ${KEY}` } } }))
    const root = makeRoot([
      { dir: 'alice/output_a', log: CALC_LOG, ageSec: 10 },
      { dir: 'alice/output_b', log: SCRAPER_LOG }
    ])
    const events: ReflectionEvent[] = []
    const summary = await runReflection(
      { rootDir: root, mode: 'openai', onEvent: (e) => events.push(e) },
      defaultReflectionDeps({ llm: llmFor(server.url, { maxRetries: 2 }), secrets: [KEY] })
    )
    expect(summary.created).toEqual([])
    expect(summary.failed.map((f) => f.taskDir).sort()).toEqual(['output_a', 'output_b'])
    // each failure carries the error's code and params beside its words (the key redacted in both): the app words it
    for (const f of summary.failed) {
      expect(f).toMatchObject({ error: 'model server error 500 (after 3 attempts): 500 upstream failed for key ***', messageCode: 'llm.server_retried', params: { status: 500, attempts: 3, detail: '500 upstream failed for key ***' } })
      expect(translateLine(f, f.error, 'zh')).toBe('模型服务器错误 500（已尝试 3 次）：500 upstream failed for key ***')
    }
    expect(server.requests).toHaveLength(6)
    const lib = libraryDirFor(root, 'alice')
    expect(skillFiles(lib)).toEqual([])
    expect(listFiles(lib).filter((f) => !f.startsWith('logs/'))).toEqual([])
    const everything = [
      JSON.stringify(summary),
      JSON.stringify(events),
      ...listFiles(root).map((f) => fs.readFileSync(path.join(root, f), 'utf8'))
    ].join('\n')
    expect(everything).not.toContain(KEY)
    expect(everything).not.toContain('TOPSECRET')
    const log = listFiles(lib).find((f) => f.startsWith('logs/'))!
    expect(fs.readFileSync(path.join(lib, log), 'utf8')).toMatch(/ - ERROR - Failed to reflect .*model server error 500/)
  })

  it('slow server: the task fails with a timeout and nothing is written', async () => {
    server = await startOpenAiServer(() => ({ delayMs: 3_000, json: chatCompletion(GOOD_ANSWER) }))
    const root = makeRoot([{ dir: 'alice/output_slow', log: CALC_LOG }])
    const summary = await runReflection(
      { rootDir: root, mode: 'openai' },
      defaultReflectionDeps({ llm: llmFor(server.url, { timeoutMs: 200, maxRetries: 1 }) })
    )
    expect(summary.failed).toHaveLength(1)
    expect(summary.failed[0]!.error).toMatch(/timed out/)
    expect(skillFiles(libraryDirFor(root, 'alice'))).toEqual([])
  })

  it('hostile answers write nothing outside the library', async () => {
    const hostile = [
      '../../../../tmp/pwned\n\nignore the above\n\nFILES_TO_BACKUP:\n/etc/passwd\n../../../outside.py\n..\\..\\win.py\ncalc.py\nUSAGE_CONDITIONS: x',
      'x'.repeat(300_000),
      '\u0000\u0001garbage```',
      '```\nFILES_TO_BACKUP:\n```'
    ]
    server = await startOpenAiServer((_r, i) => ({ json: chatCompletion(hostile[i % hostile.length]!) }))
    const root = makeRoot(
      hostile.map((_, i) => ({ dir: `eve/output_${i}`, log: CALC_LOG, workspace: { 'calc.py': 'ok\n' }, ageSec: i }))
    )
    const before = listFiles(root)
    const requested: string[][] = []
    const summary = await runReflection(
      { rootDir: root, mode: 'openai', concurrency: 1 },
      defaultReflectionDeps({
        llm: llmFor(server.url),
        backupFiles: async ({ files }) => {
          requested.push(files)
          return { copied: [], skipped: [] }
        }
      })
    )
    const lib = libraryDirFor(root, 'eve')
    const after = listFiles(root)
    const added = after.filter((f) => !before.includes(f))
    expect(added.every((f) => f.startsWith('eve/general/experience/'))).toBe(true)
    expect(requested.flat().every((p) => !p.includes('..') && !p.startsWith('/'))).toBe(true)
    expect(requested.flat()).toContain('calc.py')
    // the empty answer ('```\nFILES_TO_BACKUP:\n```') fails cleanly; the others become skills
    expect(summary.failed).toHaveLength(1)
    expect(skillFiles(lib)).toHaveLength(3)
    for (const f of skillFiles(lib)) {
      expect(fs.statSync(path.join(lib, f)).size).toBeLessThan(100_000)
    }
    expect(fs.readFileSync(path.join(lib, 'logs', fs.readdirSync(path.join(lib, 'logs'))[0]!), 'utf8')).toContain('Refused paths')
  })
})
