import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  ApiEvent,
  CodeFile,
  JobInfo,
  LibraryInfo,
  LogChunk,
  MemoryConsolidateResult,
  MemoryDocument,
  MemoryPromptResult,
  MemoryStatusResult,
  PendingPreferenceInfo,
  ReflectSummary,
  SessionSourceInfo,
  SkillListResult,
  TaskListResult
} from '../../src/shared/api'
import { loadPlanOrEmpty } from '../../src/main/review/plan'
import { main as cliMain } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { benchesDisposedAfterEach, copySampleRoot, failure, tempDir, type TestBench } from './helpers'

const bench = benchesDisposedAfterEach()

async function libraryOf(b: TestBench, user: string): Promise<string> {
  return (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === user)!.path
}

describe('memory in the app', () => {
  it('uses <root>/<user>/memory by default, edits files with conflict detection, and refuses other names', async () => {
    const b = await bench()
    const lib = await libraryOf(b, 'alice')
    const st = await b.call<MemoryStatusResult>('memory.status', { library: lib })
    expect(st).toMatchObject({ workspace: path.join(b.root, 'alice'), dir: path.join(b.root, 'alice', 'memory'), isDefault: true, exists: false, enabled: true })
    expect(st.files.map((f) => [f.name, f.exists])).toEqual([
      ['lessons.md', false],
      ['preferences.md', false],
      ['procedural.md', false],
      ['long-term.md', false]
    ])
    const empty = await b.call<MemoryDocument>('memory.read', { library: lib, name: 'lessons.md' })
    expect(empty).toEqual({ name: 'lessons.md', text: null, hash: null })
    const saved = await b.call<MemoryDocument>('memory.write', { library: lib, name: 'lessons.md', text: '# Lessons\n\n- Only use the registered tools.\n', baseHash: null })
    expect(fs.readFileSync(path.join(b.root, 'alice', 'memory', 'lessons.md'), 'utf8')).toBe('# Lessons\n\n- Only use the registered tools.\n')
    // someone else changed it: the stale hash is a conflict and nothing is written
    fs.writeFileSync(path.join(b.root, 'alice', 'memory', 'lessons.md'), '# Lessons\n\n- Changed outside.\n')
    const conflict = await failure(b.call('memory.write', { library: lib, name: 'lessons.md', text: 'mine', baseHash: saved.hash }))
    expect(conflict.code).toBe('conflict')
    expect(fs.readFileSync(path.join(b.root, 'alice', 'memory', 'lessons.md'), 'utf8')).toContain('Changed outside')
    for (const name of ['../config.txt', 'logs/../../x.md', 'notes.md', 'logs/2026-13-45.md']) {
      expect((await failure(b.call('memory.write', { library: lib, name, text: 'x', baseHash: null }))).code).toBe('bad_request')
    }
    expect(fs.existsSync(path.join(b.root, 'alice', 'config.txt'))).toBe(false)
    const prompt = await b.call<MemoryPromptResult>('memory.prompt', { library: lib })
    expect(prompt.sections.map((s) => s.key)).toEqual(['lessons'])
    expect(prompt.text).toContain('## 行为约束 / Lessons')
    expect(prompt.text).toContain('Changed outside.')
  })

  it('finds preferences stated in the user\'s tasks, queues them for review, accepts and rejects', async () => {
    const b = await bench()
    const lib = await libraryOf(b, 'alice')
    const captured = await b.call<{ found: number; queued: number; pending: PendingPreferenceInfo[] }>('memory.capturePreferences', { library: lib })
    expect(captured.queued).toBe(1)
    expect(captured.pending[0]!.text).toBe('代码注释用中文')
    // capturing again queues nothing new
    expect((await b.call<{ queued: number }>('memory.capturePreferences', { library: lib })).queued).toBe(0)
    const accepted = await b.call<{ added: boolean; pending: PendingPreferenceInfo[] }>('memory.acceptPreference', { library: lib, id: captured.pending[0]!.id })
    expect(accepted).toEqual({ added: true, pending: [] })
    expect(fs.readFileSync(path.join(b.root, 'alice', 'memory', 'preferences.md'), 'utf8')).toContain('代码注释用中文')
    expect((await failure(b.call('memory.rejectPreference', { library: lib, id: 'abcdef' }))).code).toBe('not_found')
    expect((await failure(b.call('memory.acceptPreference', { library: lib, id: 'zz' }))).code).toBe('bad_request')
    // the memory module's errors cross by code (the app words them), not only as words
    const unknown = await b.wb.dispatch('memory.rejectPreference', { library: lib, id: 'abcdef' })
    expect(unknown).toEqual({ ok: false, error: { code: 'not_found', message: "no pending preference with id 'abcdef'", messageCode: 'memory.no_pending', params: { id: 'abcdef' } } })
    const badName = await b.wb.dispatch('memory.write', { library: lib, name: 'notes.md', text: 'x', baseHash: null })
    expect(badName.ok ? null : badName.error).toMatchObject({ code: 'bad_request', messageCode: 'memory.not_memory_file', params: { name: 'notes.md' } })
    const prompt = await b.call<MemoryPromptResult>('memory.prompt', { library: lib })
    expect(prompt.text).toContain('## 用户偏好 / Preferences')
  })

  it('consolidates past daily logs once (offline summary) and a chosen workspace is remembered', async () => {
    const settingsDir = tempDir('settings')
    const b = await bench({}, undefined, settingsDir)
    const lib = await libraryOf(b, 'bob')
    await b.call('memory.write', { library: lib, name: 'logs/2026-01-02.md', text: '- Fixed the flaky upload test by retrying on 503.\n- Wrote the release notes.\n', baseHash: null })
    const first = await b.call<MemoryConsolidateResult>('memory.consolidate', { library: lib })
    expect(first.consolidated.map((c) => c.day)).toEqual(['2026-01-02'])
    const again = await b.call<MemoryConsolidateResult>('memory.consolidate', { library: lib })
    expect(again.consolidated).toEqual([])
    expect(again.skipped).toEqual([{ day: '2026-01-02', reason: 'already_consolidated' }])
    const longTerm = await b.call<MemoryDocument>('memory.read', { library: lib, name: 'long-term.md' })
    expect(longTerm.text).toContain('2026-01-02')
    expect((await b.call<MemoryStatusResult>('memory.status', { library: lib })).consolidatedDays).toEqual(['2026-01-02'])

    const elsewhere = tempDir('agent-ws')
    fs.mkdirSync(path.join(elsewhere, 'memory'))
    const moved = await b.call<MemoryStatusResult>('memory.setWorkspace', { library: lib, path: path.join(elsewhere, 'memory') })
    expect(moved).toMatchObject({ workspace: fs.realpathSync(elsewhere), isDefault: false, exists: true })
    await b.call('roots.add', { path: b.root })
    await b.wb.dispose()
    const b2 = await bench({ initialRoots: [] }, undefined, settingsDir)
    expect((await b2.call<MemoryStatusResult>('memory.status', { library: lib })).workspace).toBe(fs.realpathSync(elsewhere))
    expect((await b2.call<MemoryStatusResult>('memory.setWorkspace', { library: lib, path: null })).workspace).toBe(path.join(b.root, 'bob'))
    expect((await failure(b2.call('memory.setWorkspace', { library: lib, path: 'relative/dir' }))).code).toBe('bad_request')
  })

  it('a folder opened by hand has no memory folder until one is chosen', async () => {
    const b = await bench()
    const opened = tempDir('opened-lib')
    await b.call('libraries.open', { path: opened })
    const real = fs.realpathSync(opened)
    const st = await b.call<MemoryStatusResult>('memory.status', { library: real })
    expect(st).toMatchObject({ workspace: null, dir: null, files: [] })
    expect((await failure(b.call('memory.read', { library: real, name: 'lessons.md' }))).code).toBe('bad_request')
  })
})

describe('backed-up code files', () => {
  it('reads files under codes/ only, read-only, capped', async () => {
    const b = await bench()
    const lib = await libraryOf(b, 'alice')
    fs.mkdirSync(path.join(lib, 'codes', 'task_1'), { recursive: true })
    fs.writeFileSync(path.join(lib, 'codes', 'task_1', 'calc.py'), 'def add(a, b):\n    return a + b\n')
    fs.writeFileSync(path.join(lib, 'codes', 'task_1', 'blob.bin'), Buffer.from([1, 0, 2, 3]))
    fs.writeFileSync(path.join(b.root, 'secret.txt'), 'do not show')
    fs.symlinkSync(path.join(b.root, 'secret.txt'), path.join(lib, 'codes', 'task_1', 'link.txt'))
    const file = await b.call<CodeFile>('skills.readCode', { library: lib, path: 'codes/task_1/calc.py' })
    expect(file).toEqual({ path: 'codes/task_1/calc.py', size: 32, text: 'def add(a, b):\n    return a + b\n', truncated: false, binary: false })
    expect((await b.call<CodeFile>('skills.readCode', { library: lib, path: 'codes/task_1/blob.bin' })).binary).toBe(true)
    expect((await failure(b.call('skills.readCode', { library: lib, path: 'codes/task_1/link.txt' }))).code).toBe('forbidden')
    for (const bad of ['../secret.txt', 'codes/../../secret.txt', '/etc/passwd', 'skill_x.md', 'codes']) {
      expect((await failure(b.call('skills.readCode', { library: lib, path: bad }))).code).toBe('bad_request')
    }
    expect((await failure(b.call('skills.readCode', { library: lib, path: 'codes/task_1/none.py' }))).code).toBe('not_found')
    const big = 'x'.repeat(1_200_000)
    fs.writeFileSync(path.join(lib, 'codes', 'task_1', 'big.txt'), big)
    const capped = await b.call<CodeFile>('skills.readCode', { library: lib, path: 'codes/task_1/big.txt' })
    expect([capped.size, capped.text.length, capped.truncated]).toEqual([1_200_000, 1_000_000, true])
  })
})

/** A Codex rollout with two tasks: one completed, one interrupted. */
function writeCodexHome(): string {
  const home = tempDir('home')
  const dir = path.join(home, '.codex', 'sessions', '2026', '01', '02')
  fs.mkdirSync(dir, { recursive: true })
  const records = [
    { type: 'session_meta', payload: { id: 'abc', cwd: '/repo' } },
    { type: 'event_msg', payload: { type: 'user_message', message: 'Configure nightly rsync backups of the photo archive to the NAS with seven rotated copies' } },
    { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"rsync -a photos nas:/backup"}', call_id: 'c1' } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 0' } },
    { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"crontab -l"}', call_id: 'c2' } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c2', output: 'Process exited with code 0' } },
    { type: 'response_item', payload: { type: 'message', role: 'assistant', phase: 'final_answer', content: [{ type: 'output_text', text: 'Backups run nightly.' }] } },
    { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'Backups run nightly.' } },
    { type: 'event_msg', payload: { type: 'user_message', message: 'also lint' } },
    { type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } }
  ]
  fs.writeFileSync(path.join(dir, 'rollout-2026-01-02T10-00-00-abc.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return home
}

describe('session sources on the Workspaces screen', () => {
  it('auto-detects default folders, adds folders by hand, lists tasks with the raw session, and reflects into a chosen library', async () => {
    const home = writeCodexHome()
    const b = await bench({ env: { SKILLBENCH_HOME: home } })
    const codexDir = path.join(home, '.codex', 'sessions')
    const sources = await b.call<SessionSourceInfo[]>('sessions.list')
    expect(sources).toEqual([{ source: 'codex', dir: codexDir, detected: true, added: false, exists: true }])
    const extra = tempDir('claude-projects')
    const added = await b.call<SessionSourceInfo[]>('sessions.add', { source: 'claude', path: extra })
    expect(added.map((s) => [s.source, s.detected, s.added])).toEqual([
      ['codex', true, false],
      ['claude', false, true]
    ])
    expect((await failure(b.call('sessions.remove', { source: 'codex', path: codexDir }))).code).toBe('bad_request')
    expect((await b.call<SessionSourceInfo[]>('sessions.remove', { source: 'claude', path: extra })).length).toBe(1)
    // a folder the workbench did not list is refused
    expect((await failure(b.call('sessions.tasks', { source: 'claude', dir: extra }))).code).toBe('bad_request')

    const tasks = await b.call<TaskListResult>('sessions.tasks', { source: 'codex', dir: codexDir })
    expect(tasks.tasks.map((t) => [t.status, t.reflected])).toEqual([
      ['completed', false],
      ['interrupted', false]
    ])
    const first = tasks.tasks[0]!
    const log = await b.call<LogChunk>('sessions.readLog', { source: 'codex', dir: codexDir, taskPath: first.path })
    expect(log.text).toContain('nightly rsync backups')
    expect((await failure(b.call('sessions.readLog', { source: 'codex', dir: codexDir, taskPath: '/etc/passwd' }))).code).toBe('bad_request')

    const lib = await libraryOf(b, 'bob')
    const job = await b.call<JobInfo>('sessions.reflect', { source: 'codex', dir: codexDir, library: lib, tasks: [first.taskDir] })
    await b.wb.waitForJob(job.jobId)
    const done = b.events.find((e): e is Extract<ApiEvent, { type: 'job.done' }> => e.type === 'job.done' && e.jobId === job.jobId)!
    expect(done.state).toBe('done')
    const summary = done.result as ReflectSummary
    expect(summary.created.map((c) => c.taskDir)).toEqual([first.taskDir])
    const skills = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(skills.skills.some((s) => s.task_directories.includes(first.taskDir))).toBe(true)
    const after = await b.call<TaskListResult>('sessions.tasks', { source: 'codex', dir: codexDir })
    expect(after.tasks[0]!.reflected).toBe(true)
  })
})

/**
 * alice's pending memory proposals, whole (what, where, why, from which tasks), the data root's path written `<root>`;
 * the fingerprint left out (it hashes the workspace's path, compared in clear).
 */
async function memoryProposals(root: string): Promise<{ id: string; rest: unknown; target?: string; after: (string | null)[] }[]> {
  const plan = await loadPlanOrEmpty(fs.realpathSync(path.join(root, 'alice', 'general', 'experience')))
  return plan.proposals
    .filter((p) => p.kind === 'memory' && (p.status ?? 'pending') === 'pending')
    .map(({ id, fingerprint: _fingerprint, ...p }) => ({
      id,
      rest: JSON.parse(JSON.stringify(p).replaceAll(fs.realpathSync(root), '<root>').replaceAll(root, '<root>')) as unknown,
      target: (p.evidence.memory as { target?: string } | undefined)?.target,
      after: p.changes.map((c) => c.after)
    }))
}

/** Sets every file and folder under `dir` to an old time (so it predates the auto-enhance switch). */
function ageTree(dir: string): void {
  const old = new Date('2026-01-01T00:00:00Z')
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    fs.utimesSync(path.join(e.parentPath, e.name), old, old)
  }
}

/** A new finished AGIAgent task of alice, unlike any skill she has. */
function writeNewTask(root: string, name: string, requirement = 'Write a shell script that backs up /etc nightly with rsync and keeps seven rotated copies.'): void {
  const dir = path.join(root, 'alice', name)
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'workspace'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'workspace', 'backup.sh'), '#!/bin/sh\nrsync -a /etc /backup/etc.$(date +%u)\n')
  fs.writeFileSync(
    path.join(dir, 'logs', 'manager.out'),
    [
      `Received user requirement: ${requirement}`,
      '<invoke name="edit_file">',
      '  <parameter name="target_file">backup.sh</parameter>',
      '  <parameter name="code_edit">#!/bin/sh',
      'rsync -a /etc /backup/etc.$(date +%u)',
      '</parameter>',
      '</invoke>',
      '💬 The backup script is ready.',
      'TASK_COMPLETED: Backup script written with seven rotated copies.',
      ''
    ].join('\n')
  )
}

describe('auto-enhance', () => {
  it('after a scan finds new finished tasks, reflects them with decisions as a job, once per task', async () => {
    const settingsDir = tempDir('settings')
    const b = await bench({}, undefined, settingsDir)
    ageTree(b.root)
    // off by default: a scan starts nothing
    writeNewTask(b.root, 'output_20261201_080000')
    ageTree(path.join(b.root, 'alice', 'output_20261201_080000'))
    await b.call('tasks.list', { root: b.root })
    expect(await b.wb.autoEnhanceIdle()).toEqual([])

    await b.call('settings.update', { patch: { autoEnhance: true } })
    await b.call('tasks.list', { root: b.root })
    // the history before the switch is not reflected
    expect(await b.wb.autoEnhanceIdle()).toEqual([])

    writeNewTask(b.root, 'output_20261201_090000')
    await b.call('tasks.list', { root: b.root })
    const jobs = await b.wb.autoEnhanceIdle()
    expect(jobs.map((j) => j.kind)).toEqual(['reflect'])
    const done = b.events.find((e): e is Extract<ApiEvent, { type: 'job.done' }> => e.type === 'job.done' && e.jobId === jobs[0]!.jobId)!
    expect(done.state).toBe('done')
    const summary = done.result as ReflectSummary & { decisions?: { operation: string; taskDir: string }[] }
    expect(summary.decisions?.map((d) => [d.taskDir, d.operation])).toEqual([['output_20261201_090000', 'create']])
    expect(b.events.some((e) => e.type === 'job.progress' && e.progress.jobId === jobs[0]!.jobId && e.progress.message.startsWith('Auto-enhance'))).toBe(true)
    const lib = await libraryOf(b, 'alice')
    const skills = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(skills.skills.filter((s) => s.task_directories.includes('output_20261201_090000'))).toHaveLength(1)

    // never twice: more scans, and a restart, start nothing for the same task
    await b.call('tasks.list', { root: b.root })
    expect(await b.wb.autoEnhanceIdle()).toHaveLength(1)
    await b.call('roots.add', { path: b.root })
    await b.wb.dispose()
    const b2 = await bench({ initialRoots: [] }, b.root, settingsDir)
    const listed = await b2.call<TaskListResult>('tasks.list', { root: b.root })
    expect(listed.tasks.find((t) => t.taskDir === 'output_20261201_090000')!.reflected).toBe(true)
    expect(await b2.wb.autoEnhanceIdle()).toEqual([])

    // switched off: new tasks wait for a click on Reflect
    await b2.call('settings.update', { patch: { autoEnhance: false } })
    writeNewTask(b.root, 'output_20261201_100000')
    await b2.call('tasks.list', { root: b.root })
    expect(await b2.wb.autoEnhanceIdle()).toEqual([])
  })

  it('with long-term memory on, the same run proposes what the tasks teach into the user\'s memory, for review', async () => {
    const b = await bench()
    ageTree(b.root)
    const lib = await libraryOf(b, 'alice')
    const pendingMemory = async (): Promise<{ evidence: { memory?: { target?: string } }; changes: { after: string | null }[] }[]> =>
      (await loadPlanOrEmpty(fs.realpathSync(lib))).proposals.filter((p) => p.kind === 'memory' && (p.status ?? 'pending') === 'pending') as never

    // switched off: the auto run reflects, memory is left alone
    await b.call('settings.update', { patch: { autoEnhance: true, enableLongTermMemory: false } })
    writeNewTask(b.root, 'output_20261201_120000', 'From now on, always keep seven rotated copies of every backup. Write a shell script that backs up /etc nightly with rsync.')
    await b.call('tasks.list', { root: b.root })
    expect(await b.wb.autoEnhanceIdle()).toHaveLength(1)
    expect(await pendingMemory()).toEqual([])

    await b.call('settings.update', { patch: { enableLongTermMemory: true } })
    writeNewTask(b.root, 'output_20261201_130000', 'From now on, always use rsync --delete for mirrors. Write a shell script that mirrors /srv nightly with rsync.')
    await b.call('tasks.list', { root: b.root })
    const jobs = await b.wb.autoEnhanceIdle()
    expect(jobs).toHaveLength(2)
    const proposals = await pendingMemory()
    const preference = proposals.find((p) => p.evidence.memory?.target === 'preferences')
    expect(preference?.changes.some((c) => c.after?.includes('always use rsync --delete for mirrors'))).toBe(true)
    // only the new task was learned from (the earlier one's preference ran while memory was off)
    expect(proposals.some((p) => p.changes.some((c) => c.after?.includes('seven rotated copies of every backup')))).toBe(false)
    // nothing written to the memory files until it is accepted
    expect(fs.existsSync(path.join(b.root, 'alice', 'memory', 'preferences.md')) ? fs.readFileSync(path.join(b.root, 'alice', 'memory', 'preferences.md'), 'utf8') : '').not.toContain('rsync --delete')
    const line = b.events.find((e) => e.type === 'job.progress' && e.progress.jobId === jobs[1]!.jobId && e.progress.messageCode === 'memory.auto_proposed')
    expect(line && line.type === 'job.progress' ? line.progress.params : null).toEqual({ n: proposals.length })
  })

  it('auto-enhance\'s memory step and `reflect --evolve-memory` are one path: the same tasks propose the same memory', async () => {
    const tasks: [string, string][] = [
      ['output_20261201_140000', 'From now on, always use rsync --delete for mirrors. Write a shell script that mirrors /srv nightly with rsync.'],
      ['output_20261201_150000', 'Write a shell script that backs up /home weekly with tar. 记住：代码注释用中文。']
    ]
    // the first one also called a tool that does not exist: a lesson, worded in the run's language
    const write = (root: string): void => {
      for (const [name, text] of tasks) writeNewTask(root, name, text)
      fs.appendFileSync(path.join(root, 'alice', tasks[0]![0], 'logs', 'manager.out'), '❌ Tool execution failed: No such tool available: web_search\n')
    }
    // the app: a run started by the scan, long-term memory on, Chinese
    const b = await bench()
    ageTree(b.root)
    await b.call('settings.update', { patch: { autoEnhance: true, enableLongTermMemory: true, language: 'zh' } })
    write(b.root)
    await b.call('tasks.list', { root: b.root })
    expect(await b.wb.autoEnhanceIdle()).toHaveLength(1)
    const app = await memoryProposals(b.root)

    // the CLI on a copy of the same data: the same user's same tasks, memory into the same folder of that copy
    const root = copySampleRoot()
    write(root)
    let out = ''
    const io: CliIo = { stdout: (t) => void (out += t), stderr: () => undefined, isTTY: false, cwd: root, env: { SKILLBENCH_HOME: tempDir('home') }, signal: new AbortController().signal }
    const argv = ['reflect', '--root-dir', root, '--user', 'alice', '--decide', '--evolve-memory', path.join(root, 'alice'), '--lang', 'zh', '--json']
    expect(await cliMain([...argv, ...tasks.flatMap(([name]) => ['--task', name])], io)).toBe(0)
    const cli = await memoryProposals(root)
    expect((JSON.parse(out) as { memory: { proposed: string[] } }).memory.proposed.sort()).toEqual(cli.map((p) => p.id).sort())

    // something was learned (the lesson in Chinese, both stated preferences), and the same, word for word, for the same tasks
    expect(app.map((p) => p.target).sort()).toEqual(['lessons', 'preferences', 'preferences'])
    expect(app.flatMap((p) => p.after).join('\n')).toMatch(/web_search.*不存在|不存在.*web_search/)
    expect(app.flatMap((p) => p.after).join('\n')).toContain('rsync --delete')
    expect(app.flatMap((p) => p.after).join('\n')).toContain('代码注释')
    expect(app.map((p) => p.rest)).toEqual(cli.map((p) => p.rest))
  })

  it('a new task noticed by the data-root watcher (no click anywhere) is auto-reflected', async () => {
    const b = await bench({ watch: true })
    ageTree(b.root)
    await b.call('settings.update', { patch: { autoEnhance: true } })
    writeNewTask(b.root, 'output_20261201_110000')
    // the watcher batches the change, the workbench rescans the root after a quiet period, then the run starts
    let jobs: JobInfo[] = []
    for (let i = 0; i < 300 && jobs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50))
      jobs = await b.wb.autoEnhanceIdle()
    }
    expect(jobs).toHaveLength(1)
    const lib = await libraryOf(b, 'alice')
    const skills = await b.call<SkillListResult>('skills.list', { library: lib })
    expect(skills.skills.some((s) => s.task_directories.includes('output_20261201_110000'))).toBe(true)
  }, 30_000)
})
