/**
 * The search daemon as agents meet it: real `skillbench query` processes against a real daemon process. The first
 * query answers in process and starts the daemon; the next ones are answered by it with the very same output,
 * see every write made just before them (in place, new files, new SKILL.md folders, removals), count each use once
 * under concurrency, and the daemon steps down when asked, idle, replaced or asked by another build.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, describe, expect, it } from 'vitest'
import { notificationGap } from '../../src/main/search/change-feed'
import { searchDaemonSocket, startingMarker } from '../../src/main/search/daemon/address'
import { loadSearchIndex } from '../../src/main/search/open'
import { makeLibrary, QUERIES, skillText } from './library-fixture'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const CACHE = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-server-cache-'))
const ENV = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: CACHE, SKILLBENCH_CONFIG_DIR: CACHE, SKILLBENCH_SEARCH_SERVER: 'on', SKILLBENCH_SEARCH_TRACE: '1', SKILLBENCH_SEARCH_SERVER_IDLE_MS: '60000' }
const libraries: string[] = []

function run(args: string[], env: NodeJS.ProcessEnv = ENV): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd: PROJECT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // 'close', not 'exit': the child's output may still be in the pipe when it exits.
    p.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

const served = (r: { stderr: string }): boolean => r.stderr.includes('[search] answered by the search daemon')

/** Waits for `what`; on a timeout the error says what `context` gives (a log to find out why, when it is rare). */
async function until(what: () => Promise<boolean> | boolean, ms = 20_000, context?: () => string): Promise<void> {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error(context ? `timed out\n${context()}` : 'timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

const status = async (dir: string): Promise<string> => (await run(['search-server', '--status', '--library', dir])).stdout

/** A library with its daemon up (started by a first query, as an agent's first call does). */
async function served_library(n = 40): Promise<string> {
  const dir = makeLibrary(n)
  libraries.push(dir)
  const first = await run(['query', 'retry http timeout', '--library', dir, '--no-touch'])
  expect(first.code).toBe(0)
  expect(served(first)).toBe(false)
  expect(first.stderr).toContain('[search] search daemon started')
  await until(async () => (await status(dir)).startsWith('a search daemon answers'))
  return dir
}

afterAll(async () => {
  for (const dir of libraries) await run(['search-server', '--stop', '--library', dir])
  fs.rmSync(CACHE, { recursive: true, force: true })
})

/** Resolves once `p` has exited (by a signal too: its exitCode stays null then). */
const exited = (p: ReturnType<typeof spawn>): Promise<void> => new Promise((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : p.once('exit', () => resolve())))

/**
 * A writer process rewriting `file` (a SKILL.md) `writes` times 100 ms apart, each write whole (a rename: a question
 * must find the file, not a half-written one), the last one with the word `last`. `written()`: the writes done.
 */
function churnWriter(file: string, writes: number, last: string): { writer: ReturnType<typeof spawn>; done: Promise<void>; written: () => string } {
  const base = '---\nname: churn\ndescription: notes an agent keeps rewriting\n---\n'
  const churn = `const fs = require('fs'); const [file, base, n, last] = process.argv.slice(1); let i = 0
const t = setInterval(() => {
  i++
  fs.writeFileSync(file + '.part', base + 'churnkiwi ' + (i === +n ? last : i) + '\\n')
  fs.renameSync(file + '.part', file)
  process.stdout.write(i + ' ')
  if (i === +n) clearInterval(t)
}, 100)`
  const writer = spawn(process.execPath, ['-e', churn, file, base, String(writes), last], { stdio: ['ignore', 'pipe', 'inherit'] })
  let written = ''
  writer.stdout!.on('data', (d: Buffer) => (written += d.toString()))
  return { writer, done: exited(writer), written: () => written }
}

/** Whether the index saved in the cache folder ranks `file` first for `word` (it loads: a damaged one would not). */
function savedHas(root: string, word: string, file: string): boolean {
  const saved = loadSearchIndex(root, ENV)
  try {
    const [hit] = saved.query(word, 1)
    return hit?.path === file && hit.score > 0
  } finally {
    saved.closeFile()
  }
}

const watched = process.platform === 'linux' && notificationGap(fs.realpathSync(os.tmpdir())) === null

describe.runIf(process.platform !== 'win32')('skillbench query with the search daemon', () => {
  it('answers with the same output as in process, table and JSON, English and Chinese', async () => {
    const dir = await served_library()
    // A query's four processes at once (--no-touch: none writes, so none can change another's answer).
    for (const q of QUERIES) {
      await Promise.all([false, true].map(async (json) => {
        const flags = ['--library', dir, '--no-touch', '--top', '4', ...(json ? ['--json'] : [])]
        const [viaServer, inProcess] = await Promise.all([run(['query', q, ...flags]), run(['query', q, ...flags, '--no-server'])])
        expect(served(viaServer)).toBe(true)
        expect(served(inProcess)).toBe(false)
        expect(viaServer.code).toBe(inProcess.code)
        expect(viaServer.stdout).toBe(inProcess.stdout)
      }))
    }
    // Bad input is answered as in process: exit 2 before any daemon is asked.
    const bad = await run(['query', 'x', '--library', dir, '--top', '99'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--top must be a whole number')
  }, 120_000)

  it('lists the library with the same bytes as in process, and sees a write made just before', async () => {
    const dir = await served_library()
    const compare = async (): Promise<void> => {
      // Each listing's two processes at once (a listing writes nothing).
      for (const flags of [['--json'], [], ['--json', '--legacy'], ['--legacy']]) {
        const [viaServer, inProcess] = await Promise.all([run(['list', '--library', dir, ...flags]), run(['list', '--library', dir, ...flags, '--no-server'])])
        expect(served(viaServer)).toBe(true)
        expect(served(inProcess)).toBe(false)
        expect(viaServer.code).toBe(0)
        expect(viaServer.stdout).toBe(inProcess.stdout)
      }
    }
    await compare()
    fs.writeFileSync(path.join(dir, 'skill_777.md'), skillText(777))
    fs.rmSync(path.join(dir, 'skill_3.md'))
    const listed = JSON.parse((await run(['list', '--library', dir, '--json'])).stdout) as { skills: { path: string }[] }
    expect(listed.skills.map((s) => s.path)).toContain('skill_777.md')
    expect(listed.skills.map((s) => s.path)).not.toContain('skill_3.md')
    await compare()
  }, 120_000)

  it.runIf(watched)('sees every write made just before the question', async () => {
    const dir = await served_library()
    const top = async (q: string): Promise<string> => {
      const r = await run(['query', q, '--library', dir, '--no-touch', '--json', '--top', '1'])
      expect(served(r)).toBe(true)
      // no skill at all when none shares a word with the question (the removed ones' words)
      return (JSON.parse(r.stdout) as { skills: { path: string }[] }).skills[0]?.path ?? ''
    }
    for (let round = 0; round < 3; round++) {
      const word = `quokka${'abc'[round]}zebra`
      // In place, same size (as an editor saving over the file).
      const file = path.join(dir, 'skill_5.md')
      const before = fs.readFileSync(file, 'utf8')
      const cut = before.lastIndexOf('\n', before.length - 2)
      fs.writeFileSync(file, before.slice(0, cut + 1) + word.padEnd(before.length - cut - 2, ' ') + '\n')
      expect(await top(word)).toBe('skill_5.md')
      // A new skill file, then a new SKILL.md folder, then both removed.
      fs.writeFileSync(path.join(dir, `skill_${500 + round}.md`), skillText(500 + round).replace(/\n$/, `\nnarwhal${round}\n`))
      expect(await top(`narwhal${round}`)).toBe(`skill_${500 + round}.md`)
      fs.mkdirSync(path.join(dir, `tools${round}`, 'axo'), { recursive: true })
      fs.writeFileSync(path.join(dir, `tools${round}`, 'axo', 'SKILL.md'), `---\nname: axo\ndescription: axolotl${round} care\n---\nbody\n`)
      expect(await top(`axolotl${round} care`)).toBe(`tools${round}/axo/SKILL.md`)
      fs.rmSync(path.join(dir, `tools${round}`), { recursive: true })
      fs.rmSync(path.join(dir, `skill_${500 + round}.md`))
      expect(await top(`axolotl${round} narwhal${round}`)).not.toMatch(/axo|skill_50/)
    }
  }, 120_000)

  it.runIf(watched)('takes in a folder that keeps changing at most about once a second, and once more after it stops', async () => {
    // An agent writing a skill file every 100 ms: each write used to be taken in 25 ms after it (a rebuild every
    // 100 ms for as long as the writing went on). The daemon's own trace counts what it took in without a question.
    const dir = makeLibrary(40)
    libraries.push(dir)
    const daemon = spawn(process.execPath, [BIN, 'search-server', '--library', dir], { cwd: PROJECT, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] })
    let log = ''
    daemon.stderr!.on('data', (d: Buffer) => (log += d.toString()))
    const refreshes = (): number => (log.match(/refreshed: the index took in what changed/g) ?? []).length
    try {
      await until(async () => (await status(dir)).startsWith('a search daemon answers'), 20_000, () => log)
      const file = path.join(dir, 'churn', 'SKILL.md')
      fs.mkdirSync(path.dirname(file))
      // A folder new to the daemon, then 30 writes 100 ms apart (3 s), the last one with a word of its own. Each
      // write is whole (a rename): a question must find the file, not a half-written one.
      const writes = 30
      const before = refreshes()
      const { writer, done, written } = churnWriter(file, writes, 'finalkiwi')
      // Questions during the churn are answered, by the daemon, from what the files hold when asked.
      await until(() => written().split(' ').length > 3)
      for (let q = 0; q < 3 && writer.exitCode === null; q++) {
        const r = await run(['query', 'churnkiwi', '--library', dir, '--no-touch', '--json', '--top', '1'])
        expect(r.code).toBe(0)
        expect(served(r)).toBe(true)
        expect((JSON.parse(r.stdout) as { skills: { path: string }[] }).skills.map((s) => s.path), r.stderr).toEqual(['churn/SKILL.md'])
      }
      await done
      expect(writer.exitCode).toBe(0)
      const during = refreshes() - before
      // 3 s of writes: about one refresh a second (the first 25 ms after the first write), not one per write
      expect(during).toBeGreaterThanOrEqual(1)
      expect(during, log).toBeLessThanOrEqual(8)
      // Once the writes stop the last one is taken in without a question: the index the daemon saves has it.
      const root = fs.realpathSync(dir)
      await until(() => savedHas(root, 'finalkiwi', 'churn/SKILL.md'), 20_000, () => log)
    } finally {
      daemon.kill('SIGTERM')
      await exited(daemon)
    }
  }, 120_000)

  it.runIf(watched)('saves its index at most once per 5 s while a folder keeps changing, once more after, and a crash between saves leaves one that loads', async () => {
    // Each save at 10,000 skills is a ~5 MB delta file; the daemon saved every 2 s for as long as the writing went on.
    const dir = makeLibrary(40)
    libraries.push(dir)
    const root = fs.realpathSync(dir)
    const daemon = spawn(process.execPath, [BIN, 'search-server', '--library', dir], { cwd: PROJECT, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] })
    let log = ''
    daemon.stderr!.on('data', (d: Buffer) => (log += d.toString()))
    const saves = (): number => (log.match(/saved: the index went to the cache folder/g) ?? []).length
    try {
      await until(async () => (await status(dir)).startsWith('a search daemon answers'), 20_000, () => log)
      const file = path.join(dir, 'churn', 'SKILL.md')
      fs.mkdirSync(path.dirname(file))
      // 100 writes 100 ms apart: 10 s of churn.
      const before = saves()
      const started = Date.now()
      const { writer, done } = churnWriter(file, 100, 'finalkiwi')
      // What is saved meanwhile always loads (each save replaces its file whole): the library's skills are in it.
      let checks = 0
      while (writer.exitCode === null) {
        expect(savedHas(root, 'extract tables from pdf files', 'pdf-tool/SKILL.md'), log).toBe(true)
        checks++
        await new Promise((r) => setTimeout(r, 250))
      }
      await done
      expect(writer.exitCode).toBe(0)
      const churnMs = Date.now() - started
      const counted = saves()
      // Only a save after the last write holds its word: one already made when the test sees the writer gone (a loaded
      // machine sees its exit late) came after the churn, not during it.
      const lastAlreadySaved = savedHas(root, 'finalkiwi', 'churn/SKILL.md')
      const during = counted - before - (lastAlreadySaved ? 1 : 0)
      // One save 2 s after the first write, then one per 5 s at most: 10 s of churn allow 3 (the old 2 s timer: 4-5).
      expect(during, log).toBeGreaterThanOrEqual(1)
      expect(during, `${during} saves in ${churnMs} ms\n${log}`).toBeLessThanOrEqual(Math.floor(churnMs / 5000) + 1)
      expect(checks).toBeGreaterThan(10)
      // Once the writes stop one more save follows without a question, with the last write in it.
      // the saved file can be read before the daemon's "saved" line reaches this process: wait for both
      await until(() => savedHas(root, 'finalkiwi', 'churn/SKILL.md') && saves() - before - during >= 1, 20_000, () => log)
      const afterChurn = saves() - before - during
      expect(afterChurn, log).toBeGreaterThanOrEqual(1)

      // A crash between saves: a few more writes, the daemon killed before it saves them. The saved index (older)
      // still loads, and the next process re-reads the file that changed since, by its stat.
      const more = churnWriter(file, 5, 'crashkiwi')
      await more.done
      const savedBeforeKill = saves()
      daemon.kill('SIGKILL')
      await exited(daemon)
      expect(saves(), 'killed before its paced save').toBe(savedBeforeKill)
      expect(savedHas(root, 'finalkiwi', 'churn/SKILL.md')).toBe(true)
      const r = await run(['query', 'crashkiwi', '--library', dir, '--no-server', '--no-touch', '--json', '--top', '1'])
      expect(r.code, r.stderr).toBe(0)
      expect((JSON.parse(r.stdout) as { skills: { path: string }[] }).skills.map((s) => s.path)).toEqual(['churn/SKILL.md'])
    } finally {
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGTERM')
      await exited(daemon)
    }
  }, 120_000)

  it('counts each use once when many agents query at once through the daemon', async () => {
    const dir = await served_library()
    const fetchCounts = async (): Promise<Map<string, number>> => {
      const r = await run(['list', '--library', dir, '--json'])
      return new Map((JSON.parse(r.stdout) as { skills: { skill_id: string; fetch_count: number }[] }).skills.map((s) => [s.skill_id, s.fetch_count]))
    }
    const before = await fetchCounts()
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => run(['query', QUERIES[i % 5]!, '--library', dir, '--json'])))
    const returned = new Map<string, number>()
    for (const a of answers) {
      expect(a.code).toBe(0)
      for (const s of (JSON.parse(a.stdout) as { skills: { skill_id: string }[] }).skills) returned.set(s.skill_id, (returned.get(s.skill_id) ?? 0) + 1)
    }
    expect(answers.filter(served).length).toBeGreaterThan(0)
    const after = await fetchCounts()
    for (const [id, n] of returned) expect(after.get(id)! - before.get(id)!).toBe(n)
  }, 120_000)

  it('answers an MCP server\'s queries with the in-process ranking, each use counted once', async () => {
    const dir = await served_library()
    const ask = async (env: NodeJS.ProcessEnv, query: string): Promise<{ result: { skills: { skill_id: string; similarity_score: number }[] }; log: string }> => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--library', dir], cwd: PROJECT, env: env as Record<string, string>, stderr: 'pipe' })
      let log = ''
      transport.stderr?.on('data', (d: Buffer) => (log += d.toString()))
      const client = new Client({ name: 'search-server-test', version: '1' })
      await client.connect(transport)
      const res = (await client.callTool({ name: 'query_skill', arguments: { query } })) as unknown as { structuredContent: { skills: { skill_id: string; similarity_score: number }[] } }
      await client.close()
      return { result: res.structuredContent, log }
    }
    const before = JSON.parse((await run(['list', '--library', dir, '--json'])).stdout) as { skills: { skill_id: string; fetch_count: number }[] }
    for (const q of ['retry http timeout', '写一个计算器 除零保护']) {
      // Both sessions at once: search ranks by text alone, so a use the other counts cannot change this ranking.
      const [viaServer, inProcess] = await Promise.all([ask(ENV, q), ask({ ...ENV, SKILLBENCH_SEARCH_SERVER: 'off' }, q)])
      expect(viaServer.log).toContain('query_skill: success (search daemon)')
      expect(inProcess.log).not.toContain('(search daemon)')
      expect(viaServer.result.skills.map((s) => [s.skill_id, s.similarity_score])).toEqual(inProcess.result.skills.map((s) => [s.skill_id, s.similarity_score]))
    }
    // Every use counted once, whoever answered (4 queries × 3 skills).
    const after = JSON.parse((await run(['list', '--library', dir, '--json'])).stdout) as { skills: { fetch_count: number }[] }
    const total = (l: { skills: { fetch_count: number }[] }): number => l.skills.reduce((n, s) => n + s.fetch_count, 0)
    expect(total(after) - total(before)).toBe(12)

    // With no daemon up, an MCP session that opened the index itself starts one for the next sessions.
    await run(['search-server', '--stop', '--library', dir])
    await until(async () => (await status(dir)).startsWith('no search daemon'))
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--library', dir], cwd: PROJECT, env: ENV as Record<string, string>, stderr: 'pipe' })
    let log = ''
    transport.stderr?.on('data', (d: Buffer) => (log += d.toString()))
    const client = new Client({ name: 'search-server-test', version: '1' })
    await client.connect(transport)
    try {
      await client.callTool({ name: 'query_skill', arguments: { query: 'retry http timeout' } })
      // Once in a few CI runs no daemon answered within the wait: the MCP server's log and the last status say why.
      let last = ''
      await until(async () => (last = await status(dir)).startsWith('a search daemon answers'), 20_000, () => `last status: ${last}\nMCP log:\n${log}`)
      expect(log).toContain('search daemon started for this library')
    } finally {
      await client.close()
    }
  }, 120_000)

  it('refuses bad requests, steps down for another build, and a new one starts after', async () => {
    const dir = await served_library(10)
    const socket = searchDaemonSocket(fs.realpathSync(dir), ENV)!
    const ask = (line: string): Promise<string> =>
      new Promise((resolve) => {
        const c = net.connect(socket)
        let out = ''
        c.on('connect', () => c.write(line))
        c.on('data', (d: Buffer) => (out += d.toString()))
        c.on('end', () => resolve(out))
        c.on('error', (e) => resolve(`error ${e.message}`))
      })
    expect(JSON.parse(await ask('not json\n'))).toMatchObject({ ok: false, reason: 'bad-request' })
    expect(JSON.parse(await ask('x'.repeat(300_000)))).toMatchObject({ ok: false, reason: 'bad-request' })
    const other = { op: 'query', build: 'x', root: '/elsewhere', text: 'a', top: 1, touch: true, json: true, via: 'cli', deadline: Date.now() + 60_000 }
    const late = { ...other, root: fs.realpathSync(dir), deadline: 0 }
    expect(JSON.parse(await ask(JSON.stringify(other) + '\n'))).toMatchObject({ ok: false, reason: 'other-library' })
    expect(await status(dir)).toMatch(/^a search daemon answers/)
    expect(JSON.parse(await ask(JSON.stringify(late) + '\n'))).toMatchObject({ ok: false, reason: 'build' })
    await until(async () => (await status(dir)).startsWith('no search daemon'))
    const next = await run(['query', 'retry', '--library', dir, '--no-touch'])
    expect(next.code).toBe(0)
    expect(served(next)).toBe(false)
    await until(async () => (await status(dir)).startsWith('a search daemon answers'))
  }, 120_000)

  it('a daemon stepping down after another took its place leaves the newcomer answering', async () => {
    // The race behind a rare CI failure: `search-server --stop` removes the socket, a new daemon starts within the
    // old one's 2 s check, and the old one then closes. Closing a Unix socket listener unlinks the path it was bound
    // to, which by then was the newcomer's socket. The old daemon is held (SIGSTOP) until the new one answers.
    const dir = makeLibrary(10)
    libraries.push(dir)
    const socket = searchDaemonSocket(fs.realpathSync(dir), ENV)!
    const start = (): ReturnType<typeof spawn> => spawn(process.execPath, [BIN, 'search-server', '--library', dir], { cwd: PROJECT, env: { ...ENV, SKILLBENCH_SEARCH_TRACE: '1' }, stdio: ['ignore', 'ignore', 'pipe'] })
    const checksOf = (p: ReturnType<typeof spawn>): { inPlace: number; log: string } => {
      const seen = { inPlace: 0, log: '' }
      p.stderr!.on('data', (d: Buffer) => {
        seen.log += d.toString()
        seen.inPlace = (seen.log.match(/checked: socket and library in place/g) ?? []).length
      })
      return seen
    }
    /** Resolves once `p` has exited (by a signal too: its exitCode stays null then). */
const exited = (p: ReturnType<typeof spawn>): Promise<void> => new Promise((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : p.once('exit', () => resolve())))
    const old = start()
    await until(async () => (await status(dir)).startsWith('a search daemon answers'))
    old.kill('SIGSTOP')
    const newcomer = start()
    const newcomerChecks = checksOf(newcomer)
    try {
      fs.rmSync(socket)
      await until(async () => (await status(dir)).startsWith('a search daemon answers'))
      old.kill('SIGCONT')
      old.kill('SIGTERM')
      await exited(old)
      // the newcomer's own check of its socket (every 2 s), after the old one closed, found it in place
      const before = newcomerChecks.inPlace
      await until(() => newcomerChecks.inPlace > before || newcomer.exitCode !== null, 20_000, () => newcomerChecks.log)
      expect(newcomerChecks.log).not.toContain('stepped down')
      expect(fs.existsSync(socket)).toBe(true)
      expect(await status(dir)).toMatch(/^a search daemon answers/)
      expect(newcomer.exitCode).toBe(null)
    } finally {
      old.kill('SIGCONT')
      old.kill('SIGTERM')
      newcomer.kill('SIGTERM')
      await exited(newcomer)
    }
  }, 120_000)

  it('removes the private names of daemons that died before renaming them, and no other file', async () => {
    const dir = makeLibrary(10)
    libraries.push(dir)
    const socket = searchDaemonSocket(fs.realpathSync(dir), ENV)!
    fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 })
    const nameOf = (pid: number): string => socket.replace(/\.sock$/, `.p${pid.toString(36)}`)
    // A process killed right after binding its private name, as a daemon killed before its rename: the file stays.
    const bindAndDie = `const f = process.argv[1].replace(/\\.sock$/, '.p' + process.pid.toString(36)); require('net').createServer().listen(f, () => { process.stdout.write(f); process.kill(process.pid, 'SIGKILL') })`
    const dead = spawnSync(process.execPath, ['-e', bindAndDie, socket], { encoding: 'utf8' })
    const orphan = dead.stdout
    expect(orphan).toBe(nameOf(dead.pid!))
    expect(fs.lstatSync(orphan).isSocket()).toBe(true)
    // One that runs (this test's own), and a plain file under a dead pid's name: neither is touched.
    const alive = net.createServer()
    await new Promise<void>((resolve) => alive.listen(nameOf(process.pid), resolve))
    const plain = nameOf(dead.pid! + 1_000_000)
    fs.writeFileSync(plain, 'not a socket')
    try {
      const first = await run(['query', 'retry', '--library', dir, '--no-touch'])
      expect(first.stderr).toContain('search daemon started')
      await until(async () => (await status(dir)).startsWith('a search daemon answers'))
      expect(fs.existsSync(orphan)).toBe(false)
      expect(fs.lstatSync(nameOf(process.pid)).isSocket()).toBe(true)
      expect(fs.readFileSync(plain, 'utf8')).toBe('not a socket')
    } finally {
      await new Promise((resolve) => alive.close(resolve))
      fs.rmSync(plain, { force: true })
    }
  }, 120_000)

  it('does not trust a socket in a folder other users can write to', async () => {
    const dir = await served_library(10)
    const socket = searchDaemonSocket(fs.realpathSync(dir), ENV)!
    const folder = path.dirname(socket)
    fs.chmodSync(folder, 0o777)
    try {
      const r = await run(['query', 'retry', '--library', dir, '--no-touch'])
      expect(r.code).toBe(0)
      expect(served(r)).toBe(false)
      expect(r.stderr).toContain('the search daemon socket is not used (in a folder others can write to)')
    } finally {
      fs.chmodSync(folder, 0o700)
    }
    expect(served(await run(['query', 'retry', '--library', dir, '--no-touch']))).toBe(true)
  }, 120_000)

  it('steps down when stopped, when its socket is removed and when idle; never started when switched off', async () => {
    const dir = await served_library(10)
    expect((await run(['search-server', '--stop', '--library', dir])).stdout).toContain('asked to stop')
    await until(async () => (await status(dir)).startsWith('no search daemon'))

    const idle = await run(['query', 'retry', '--library', dir, '--no-touch'], { ...ENV, SKILLBENCH_SEARCH_SERVER_IDLE_MS: '800' })
    expect(idle.stderr).toContain('search daemon started')
    const socket = searchDaemonSocket(fs.realpathSync(dir), ENV)!
    await until(() => fs.existsSync(socket))
    await until(() => !fs.existsSync(socket), 15_000)

    const off = await run(['query', 'retry', '--library', dir, '--no-touch'], { ...ENV, SKILLBENCH_SEARCH_SERVER: 'off' })
    expect(off.code).toBe(0)
    expect(off.stderr).not.toContain('search daemon')
    // a start would be under way (its marker, made before the spawn) or done (an answering daemon) by now
    expect(fs.existsSync(startingMarker(socket))).toBe(false)
    expect(await status(dir)).toMatch(/^no search daemon/)

    // A listing answered in process starts one too, for the next listing or query.
    const listed = await run(['list', '--library', dir, '--json'])
    expect(listed.code).toBe(0)
    expect(served(listed)).toBe(false)
    expect(listed.stderr).toContain('search daemon started')
    await until(async () => (await status(dir)).startsWith('a search daemon answers'))
    expect(served(await run(['list', '--library', dir, '--json']))).toBe(true)
  }, 120_000)
})
