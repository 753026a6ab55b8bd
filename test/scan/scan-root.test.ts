import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCacheDir } from '../../src/main/cache-dir'
import { cacheFileFor, ScanCache } from '../../src/main/scan/cache'
import { resolveRootDir, ScanError } from '../../src/main/scan/discover'
import { scanRoot, scanTask } from '../../src/main/scan/scan-root'
import type { LogParse } from '../../src/main/scan/agiagent-parser'
import { FS_READER, readChunksSliced, type LogReader } from '../../src/main/scan/read-log'
import { toWorkspaceRelative } from '../../src/main/scan/task-trace'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

let tmp: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-scan-'))
})
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

function write(rel: string, text: string | Buffer, mtimeSec?: number): string {
  const full = path.join(tmp, rel)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, text)
  if (mtimeSec !== undefined) {
    fs.utimesSync(full, mtimeSec, mtimeSec)
  }
  return full
}

function setDirTime(rel: string, sec: number): void {
  fs.utimesSync(path.join(tmp, rel), sec, sec)
}

const MANAGER = (req: string, done = true): string =>
  `Received user requirement: ${req}\n\n<invoke name="edit_file">\n<parameter name="target_file">src/app.py</parameter>\n<parameter name="code_edit">print('hi')\n</parameter>\n</invoke>\n${done ? 'TASK_COMPLETED: done🎉 Workflow completed!\n' : ''}`

/** A reader that counts opened files, to prove a rescan re-reads nothing. */
function countingReader(): LogReader & { opened: string[] } {
  const opened: string[] = []
  return {
    opened,
    open(p) {
      opened.push(p)
      return FS_READER.open(p)
    }
  }
}

function buildRoot(): void {
  write('alice/output_20260101_100000/logs/manager.out', MANAGER('write app'), 1_700_000_100)
  write(
    'alice/output_20260101_100000/logs/agent_001.out',
    'Received user requirement: sub-task for agent one\n<invoke name="write_file"><parameter name="file_path">lib/util.py</parameter></invoke>\n📤 Agent agent_001 sent message m1 to manager\n❌ Tool execution error: boom\n',
    1_700_000_100
  )
  write('alice/output_20260101_100000/logs/manager.log', 'debug twin, ignored TASK_COMPLETED:\n', 1_700_000_100)
  write('bob/output_20260102_090000/logs/manager.out', MANAGER('interrupted one', false), 1_700_000_300)
  write('bob/output_nologs/workspace/a.txt', 'x')
  write('output_root_task/logs/manager.out', MANAGER('root level'), 1_700_000_200)
  write('output_root_ws_only/workspace/readme.md', 'x')
  write('output_root_empty/notes.txt', 'not a task folder')
  write('benchmark_results/run1/baseline_outputs/output_b1/logs/manager.out', MANAGER('bench baseline'), 1_700_000_050)
  write('benchmark_results/run1/skill_outputs/output_s1/logs/manager.out', MANAGER('bench skill'), 1_700_000_060)
  write('benchmark_results/run1/other/output_x/logs/manager.out', MANAGER('not a benchmark kind'), 1_700_000_060)
  write('carol/output_emptylogs/logs/readme.txt', 'no .out here')
  write('.hidden/output_h/logs/manager.out', MANAGER('hidden user'))
  for (const d of [
    'alice/output_20260101_100000',
    'bob/output_20260102_090000',
    'output_root_task',
    'benchmark_results/run1/baseline_outputs/output_b1',
    'benchmark_results/run1/skill_outputs/output_s1'
  ]) {
    setDirTime(d, 1_600_000_000)
  }
}

describe('discovery', () => {
  it('finds root, user and benchmark task folders newest first, and lists skipped folders with reasons', async () => {
    buildRoot()
    const r = await scanRoot({ rootDir: tmp, cache: new ScanCache() })
    expect(r.root).toBe(path.resolve(tmp))
    expect(r.tasks.map((t) => [t.user, t.taskDir])).toEqual([
      ['bob', 'output_20260102_090000'],
      ['', 'output_root_task'],
      ['alice', 'output_20260101_100000'],
      ['', 'output_s1'],
      ['', 'output_b1']
    ])
    expect(r.skipped).toEqual([
      { path: path.join(tmp, 'bob', 'output_nologs'), reason: 'no logs/ folder', messageCode: 'scan.no_logs', params: {} },
      { path: path.join(tmp, 'carol', 'output_emptylogs'), reason: 'logs/ has no manager.out or agent_*.out', messageCode: 'scan.no_agent_logs', params: {} },
      { path: path.join(tmp, 'output_root_ws_only'), reason: 'no logs/ folder', messageCode: 'scan.no_logs', params: {} }
    ])
  })

  it('merges manager and agent logs with per-agent attribution; requirements come from manager.out', async () => {
    buildRoot()
    const r = await scanRoot({ rootDir: tmp, cache: new ScanCache() })
    const alice = r.tasks.find((t) => t.user === 'alice')!
    expect(alice.requirements).toEqual(['write app'])
    expect(alice.agentRequirements).toEqual({ agent_001: ['sub-task for agent one'] })
    expect(alice.toolCalls.map((c) => [c.agent, c.name])).toEqual([
      ['manager', 'edit_file'],
      ['agent_001', 'write_file']
    ])
    expect(alice.files).toEqual(['src/app.py', 'lib/util.py'])
    expect(alice.errors).toEqual(['[agent_001] ❌ Tool execution error: boom'])
    expect(alice.agentMessages).toMatchObject([{ kind: 'sent', from: 'agent_001', to: 'manager', agent: 'agent_001' }])
    expect(alice.status).toBe('completed')
    const bob = r.tasks.find((t) => t.user === 'bob')!
    expect(bob).toMatchObject({ status: 'incomplete', completed: false, interruptions: 0 })
  })

  it('does not follow a symlink out of the root', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-outside-'))
    try {
      fs.mkdirSync(path.join(outside, 'logs'))
      fs.writeFileSync(path.join(outside, 'logs', 'manager.out'), MANAGER('secret'))
      fs.mkdirSync(path.join(tmp, 'dave'))
      fs.symlinkSync(outside, path.join(tmp, 'dave', 'output_link'))
      fs.symlinkSync(outside, path.join(tmp, 'evil_user'))
      write('output_ok/logs/manager.out', MANAGER('ok'))
      fs.symlinkSync(path.join(outside, 'logs', 'manager.out'), path.join(tmp, 'output_ok', 'logs', 'agent_009.out'))
      const r = await scanRoot({ rootDir: tmp, cache: new ScanCache() })
      expect(r.tasks.map((t) => t.taskDir)).toEqual(['output_ok'])
      expect(r.tasks[0]!.requirements).toEqual(['ok'])
      expect(r.skipped).toEqual([{ path: path.join(tmp, 'dave', 'output_link'), reason: 'symlink pointing outside the data root (not followed)', messageCode: 'scan.link_outside_root', params: {} }])
    } finally {
      fs.rmSync(outside, { recursive: true, force: true })
    }
  })

  it('reports progress per task and stops on abort', async () => {
    buildRoot()
    const seen: [number, number][] = []
    await scanRoot({ rootDir: tmp, cache: new ScanCache(), onProgress: (d, t) => seen.push([d, t]) })
    expect(seen.map(([d]) => d)).toEqual([1, 2, 3, 4, 5])
    expect(seen.every(([, t]) => t === 5)).toBe(true)
    const ac = new AbortController()
    ac.abort()
    await expect(scanRoot({ rootDir: tmp, cache: new ScanCache(), signal: ac.signal })).rejects.toThrow(/abort/i)
  })

  it('a missing root is a clear ScanError', async () => {
    await expect(scanRoot({ rootDir: path.join(tmp, 'nope') })).rejects.toThrow(ScanError)
    await expect(scanRoot({ rootDir: path.join(tmp, 'nope') })).rejects.toThrow(/data root not found/)
  })

  it('scanTask parses one folder and refuses one without logs', async () => {
    buildRoot()
    const t = await scanTask(path.join(tmp, 'alice', 'output_20260101_100000'), { cache: new ScanCache() })
    expect(t.user).toBe('alice')
    expect(t.toolCalls).toHaveLength(2)
    await expect(scanTask(path.join(tmp, 'bob', 'output_nologs'))).rejects.toThrow(/no logs\/ folder/)
  })
})

describe('root resolution', () => {
  it('--root-dir, else gui_default_data_directory from config.txt (inline comments), else ./data', () => {
    expect(resolveRootDir({ rootDir: 'x', cwd: tmp })).toBe(path.join(tmp, 'x'))
    expect(resolveRootDir({ cwd: tmp })).toBe(path.join(tmp, 'data'))
    write('config/config.txt', '# AGIAgent config\nmodel=glm-4.5\ngui_default_data_directory=my_data  # where tasks go\n')
    expect(resolveRootDir({ cwd: tmp })).toBe(path.join(tmp, 'my_data'))
    write('other.txt', 'gui_default_data_directory=/abs/root\n')
    expect(resolveRootDir({ cwd: tmp, configPath: 'other.txt' })).toBe('/abs/root')
    expect(() => resolveRootDir({ cwd: tmp, configPath: 'missing.txt' })).toThrow(ScanError)
  })

  it('scanRoot uses the config.txt root', async () => {
    write('config/config.txt', 'gui_default_data_directory=roots/main\n')
    write('roots/main/u1/output_1/logs/manager.out', MANAGER('from config'))
    const r = await scanRoot({ cwd: tmp, cache: new ScanCache() })
    expect(r.root).toBe(path.join(tmp, 'roots', 'main'))
    expect(r.tasks.map((t) => t.requirements[0])).toEqual(['from config'])
  })
})

describe('incremental cache', () => {
  it('a rescan of an unchanged root opens no log; a changed log is re-read alone', async () => {
    buildRoot()
    const cache = new ScanCache<LogParse>()
    const first = countingReader()
    const r1 = await scanRoot({ rootDir: tmp, cache, reader: first })
    expect(first.opened).toHaveLength(6) // 5 manager.out + 1 agent_001.out
    const second = countingReader()
    const r2 = await scanRoot({ rootDir: tmp, cache, reader: second })
    expect(second.opened).toEqual([])
    expect(r2).toEqual(r1)
    // A log being appended: its size changes, so it (only it) is read again and the new content is seen.
    const bobLog = path.join(tmp, 'bob', 'output_20260102_090000', 'logs', 'manager.out')
    fs.appendFileSync(bobLog, 'TASK_COMPLETED: finished later\n')
    const third = countingReader()
    const r3 = await scanRoot({ rootDir: tmp, cache, reader: third })
    expect(third.opened).toEqual([bobLog])
    expect(r3.tasks.find((t) => t.user === 'bob')!.status).toBe('completed')
  })

  it('a rescan finds a log file added to a known logs/ folder, and forgets a removed one', async () => {
    buildRoot()
    const cache = new ScanCache<LogParse>()
    const r1 = await scanRoot({ rootDir: tmp, cache })
    expect(r1.tasks.find((t) => t.user === 'alice')!.toolCalls).toHaveLength(2)
    const logs = path.join(tmp, 'alice', 'output_20260101_100000', 'logs')
    fs.writeFileSync(path.join(logs, 'agent_002.out'), '<invoke name="write_file"><parameter name="file_path">lib/more.py</parameter></invoke>\n')
    const reader = countingReader()
    const r2 = await scanRoot({ rootDir: tmp, cache, reader })
    expect(reader.opened).toEqual([path.join(logs, 'agent_002.out')])
    expect(r2.tasks.find((t) => t.user === 'alice')!.toolCalls.map((c) => [c.agent, c.name])).toEqual([
      ['manager', 'edit_file'],
      ['agent_001', 'write_file'],
      ['agent_002', 'write_file']
    ])
    fs.rmSync(path.join(logs, 'agent_001.out'))
    const r3 = await scanRoot({ rootDir: tmp, cache })
    expect(r3.tasks.find((t) => t.user === 'alice')!.toolCalls.map((c) => c.agent)).toEqual(['manager', 'agent_002'])
  })

  it('persists under the cache dir (never in the data root) and survives a restart; a corrupt file is ignored', async () => {
    buildRoot()
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-cache-'))
    try {
      const env = { SKILLBENCH_CACHE_DIR: cacheDir }
      expect(defaultCacheDir(env)).toBe(cacheDir)
      expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/skillbench')
      const file = cacheFileFor(tmp, env)
      expect(path.dirname(file)).toBe(cacheDir)
      const before = listAll(tmp)
      const c1 = new ScanCache<LogParse>(file)
      await c1.load()
      await scanRoot({ rootDir: tmp, cache: c1 })
      await c1.save()
      expect(listAll(tmp)).toEqual(before) // nothing written into the data root
      const c2 = new ScanCache<LogParse>(file)
      await c2.load()
      const reader = countingReader()
      await scanRoot({ rootDir: tmp, cache: c2, reader })
      expect(reader.opened).toEqual([])
      fs.writeFileSync(file, '{not json')
      const c3 = new ScanCache<LogParse>(file)
      await c3.load()
      expect(c3.size).toBe(0)
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true })
    }
  })
})

describe('sliced synchronous reads', () => {
  it('read exactly the stat size (a log being appended is read as far as it was keyed), from any start', async () => {
    const file = write('x/big.out', Buffer.alloc(3 * 1024 * 1024 + 5, 'a'))
    fs.appendFileSync(file, 'tail')
    const seen: number[] = []
    const total = await readChunksSliced(file, (c) => seen.push(c.length), { length: 3 * 1024 * 1024 + 5 })
    expect(total).toBe(3 * 1024 * 1024 + 5)
    expect(seen.reduce((a, b) => a + b, 0)).toBe(total)
    const parts: Buffer[] = []
    await readChunksSliced(file, (c) => parts.push(Buffer.from(c)), { start: 3 * 1024 * 1024 + 5 })
    expect(Buffer.concat(parts).toString()).toBe('tail')
    const ac = new AbortController()
    ac.abort()
    await expect(readChunksSliced(file, () => undefined, { signal: ac.signal })).rejects.toThrow(/abort/i)
    await expect(readChunksSliced(path.join(tmp, 'missing.out'), () => undefined)).rejects.toThrow(/ENOENT/)
  })
})

describe('persisted cache format', () => {
  it('round-trips every trace field (partial calls, agent logs, messages, errors) and ignores foreign files', async () => {
    buildRoot()
    write(
      'dave/output_partial/logs/manager.out',
      'Received user requirement: cut off\n<invoke name="edit_file">\n<parameter name="target_file">a.py</parameter>\n<parameter name="code_edit">x = "é…"\n',
      1_700_000_400
    )
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-cache-'))
    try {
      const file = cacheFileFor(tmp, { SKILLBENCH_CACHE_DIR: cacheDir })
      const c1 = new ScanCache<LogParse>(file)
      const r1 = await scanRoot({ rootDir: tmp, cache: c1 })
      expect(r1.tasks.find((t) => t.user === 'dave')!.toolCalls[0]).toMatchObject({ partial: true, params: { code_edit: 'x = "é…"' } })
      await c1.save()
      const c2 = new ScanCache<LogParse>(file)
      await c2.load()
      expect(c2.size).toBe(c1.size)
      const reader = countingReader()
      const r2 = await scanRoot({ rootDir: tmp, cache: c2, reader })
      expect(reader.opened).toEqual([])
      expect(r2).toEqual(r1)
      expect(JSON.stringify(r2)).toBe(JSON.stringify(r1)) // same key order too
      // An older JSON cache (or any other file) at that path is ignored, not misread.
      fs.writeFileSync(file, JSON.stringify({ format: 1, entries: [] }))
      const c3 = new ScanCache<LogParse>(file)
      await c3.load()
      expect(c3.size).toBe(0)
      // A truncated file is ignored too.
      await c2.save()
      c2.set('/x', 1, 1, r1.tasks[0] as unknown as LogParse)
      await c2.save()
      const bytes = fs.readFileSync(file)
      fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)))
      const c4 = new ScanCache<LogParse>(file)
      await c4.load()
      expect(c4.size).toBe(0)
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true })
    }
  })
})

function listAll(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort()
}

describe('workspace files', () => {
  it('normalises to workspace-relative and drops paths outside', () => {
    const task = '/data/alice/output_7'
    expect(toWorkspaceRelative('/data/alice/output_7/workspace/a/b.py', task, 'output_7')).toBe('a/b.py')
    expect(toWorkspaceRelative('/Users/other/machine/output_7/workspace/x.md', task, 'output_7')).toBe('x.md')
    expect(toWorkspaceRelative('workspace/./src/../src/m.ts', task, 'output_7')).toBe('src/m.ts')
    expect(toWorkspaceRelative('output_7/workspace/z.txt', task, 'output_7')).toBe('z.txt')
    expect(toWorkspaceRelative('../../etc/passwd', task, 'output_7')).toBeNull()
    expect(toWorkspaceRelative('/etc/passwd', task, 'output_7')).toBeNull()
    expect(toWorkspaceRelative('', task, 'output_7')).toBeNull()
  })
})

function cliIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return {
    out,
    err,
    stdout: (t) => void out.push(String(t)),
    stderr: (t) => void err.push(t),
    isTTY: false,
    cwd: tmp,
    env: { SKILLBENCH_CACHE_DIR: path.join(tmp, '..', path.basename(tmp) + '-cache') },
    signal: new AbortController().signal
  }
}

describe('skillbench scan', () => {
  afterEach(() => fs.rmSync(path.join(tmp, '..', path.basename(tmp) + '-cache'), { recursive: true, force: true }))

  it('--json prints exactly the documented shape', async () => {
    buildRoot()
    const io = cliIo()
    expect(await main(['scan', '--root-dir', tmp, '--json'], io)).toBe(0)
    const doc = JSON.parse(io.out.join('')) as { root: string; tasks: Record<string, unknown>[]; skipped: unknown[] }
    expect(Object.keys(doc)).toEqual(['root', 'tasks', 'skipped'])
    expect(Object.keys(doc.tasks[0]!)).toEqual([
      'user', 'taskDir', 'path', 'mtime', 'status', 'completed', 'requirements', 'toolCalls', 'errors', 'interruptions', 'agentMessages', 'files'
    ])
    expect(Object.keys((doc.tasks[0]!.toolCalls as object[])[0]!)).toEqual(['agent', 'name', 'params'])
    expect(doc.skipped).toHaveLength(3)
  })

  it('prints a readable table, and fails clearly on a missing root', async () => {
    buildRoot()
    const io = cliIo()
    expect(await main(['scan', '--root-dir', tmp], io)).toBe(0)
    const text = io.out.join('')
    expect(text).toMatch(/TASK\s+USER\s+STATUS/)
    expect(text).toContain('output_20260102_090000')
    expect(text).toContain('no logs/ folder')
    const bad = cliIo()
    expect(await main(['scan', '--root-dir', path.join(tmp, 'missing')], bad)).toBe(1)
    expect(bad.err.join('')).toMatch(/data root not found/)
    expect(await main(['scan', '--root-dir', tmp, '--claude-dir', tmp], cliIo())).toBe(2)
  })
})

describe.skipIf(!HAS_REAL_DATA)('real data root', () => {
  it('scans the committed upstream data root example', async () => {
    const root = realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example')
    const r = await scanRoot({ rootDir: root, cache: new ScanCache() })
    expect(r.tasks).toHaveLength(1)
    expect(r.tasks[0]).toMatchObject({ user: 'tianhaoyang', taskDir: 'output_20260119_124253', status: 'completed', interruptions: 0 })
    expect(r.tasks[0]!.requirements).toHaveLength(9)
  })
})

describe('bundled sample data root', () => {
  it('the English initialisation line is not glued onto the requirement', async () => {
    const root = path.resolve(__dirname, '..', '..', 'resources', 'sample-data')
    const task = await scanTask(path.join(root, 'alice', 'output_20261104_160000'), { cache: new ScanCache() })
    expect(task.requirements).toEqual([
      'Research three open-source vector databases and write a comparison table; split the research between two agents.'
    ])
    const r = await scanRoot({ rootDir: root, cache: new ScanCache() })
    for (const t of r.tasks) {
      for (const req of t.requirements) {
        expect(req).not.toMatch(/Initialization complete|初始化完成|Currently selected directory/)
      }
    }
  })
})
