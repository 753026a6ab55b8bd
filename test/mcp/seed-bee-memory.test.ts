// Seed 003 (Bee): agents write memory through MCP — add_lesson, record_preference — under the same review switch as
// edit_skill. Real `skillbench mcp` processes over stdio; two servers writing at once lose nothing.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, describe, expect, it } from 'vitest'
import { childEnv } from '../helpers/mcp-env'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-seed003-'))
const run = promisify(execFile)

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

/** A data root with one user: library root/alice/general/experience, memory root/alice/memory. */
function dataRoot(name: string, config = ''): { root: string; ws: string; lib: string; settings: string } {
  const root = path.join(tmp, name)
  const lib = path.join(root, 'alice', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  fs.writeFileSync(path.join(lib, 'skill_a.md'), '---\nskill_id: "1"\ntitle: A\nusage_conditions: when a\nquality_index: 0.5\nfetch_count: 0\n---\n\nDo a.\n')
  if (config) fs.writeFileSync(path.join(root, 'config.txt'), config)
  const settings = path.join(root, 'settings')
  fs.mkdirSync(settings)
  return { root, ws: path.join(root, 'alice'), lib, settings }
}

async function connect(args: string[], settings: string, name = 'seed-003'): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: PROJECT, stderr: 'pipe', env: childEnv({ SKILLBENCH_CONFIG_DIR: settings }) })
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(transport)
  return client
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] }
  return { isError: r.isError === true, body: JSON.parse(r.content[0]!.text) as Record<string, unknown> }
}

/** Texts no near-duplicate test confuses (random-looking, so their character pairs differ). */
const distinct = (s: number, i: number): string => createHash('sha1').update(`${s}-${i}`).digest('hex').slice(0, 24)

const read = (f: string): string | null => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null)

describe('memory tools over MCP (seed 003)', () => {
  it('in proposal mode (the default) a lesson and a preference wait for review; accepting lands them once', async () => {
    const { root, ws, settings } = dataRoot('proposals')
    const client = await connect(['--root-dir', root, '--user', 'alice'], settings)
    try {
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names).toEqual(expect.arrayContaining(['add_lesson', 'record_preference', 'edit_skill']))
      const lesson = '仅使用以下已注册工具：cat、ls、shell、search、echo；不要编造不存在的工具名（例如曾误用「web_fetch」）。'
      const a = await call(client, 'add_lesson', { lesson })
      expect(a.isError).toBe(false)
      expect(a.body).toMatchObject({ status: 'success', pending: true, file: 'memory/lessons.md' })
      // nothing written until a person accepts
      expect(read(path.join(ws, 'memory', 'lessons.md'))).toBeNull()
      // the same rule for the same tools (another invented name) is already proposed
      const again = await call(client, 'add_lesson', { lesson: lesson.replace('web_fetch', 'browse') })
      expect(again.body).toMatchObject({ status: 'success', pending: false })
      expect(String(again.body.message)).toContain(String(a.body.proposal_id))
      const pref = await call(client, 'record_preference', { preference: 'language: zh' })
      expect(pref.body).toMatchObject({ pending: true, file: 'memory/preferences.md' })

      const listed = JSON.parse((await run(process.execPath, [BIN, 'proposals', '--root-dir', root, '--user', 'alice', '--json'])).stdout) as { proposals: { id: string; kind: string; author: string }[] }
      expect(listed.proposals.filter((p) => p.kind === 'memory').map((p) => p.author)).toEqual(['mcp:seed-003', 'mcp:seed-003'])
      for (const id of [a.body.proposal_id, pref.body.proposal_id]) await run(process.execPath, [BIN, 'accept', String(id), '--root-dir', root, '--user', 'alice'])
      expect(read(path.join(ws, 'memory', 'lessons.md'))).toBe(`# Lessons / 行为约束\n\n- ${lesson}\n`)
      expect(read(path.join(ws, 'memory', 'preferences.md'))).toBe('# Preferences / 用户偏好\n\n- language: zh\n')
      expect(read(path.join(ws, 'memory', 'long-term.md'))).toContain('## Preferences / 用户偏好\n\n- language: zh\n')
      // in memory now: not proposed again
      expect((await call(client, 'record_preference', { preference: 'Language:  zh' })).body).toMatchObject({ pending: false })
      // bad input gets a clear error and writes nothing
      const empty = await call(client, 'add_lesson', { lesson: '   ' })
      expect(empty.isError).toBe(true)
      expect((await call(client, 'add_lesson', { lesson: 'x'.repeat(501) })).body.message).toMatch(/at most 500/)
    } finally {
      await client.close()
    }
  }, 60_000)

  it('with --direct-edit the write lands at once; a library with no memory folder, or memory off, says so', async () => {
    const { root, ws, lib, settings } = dataRoot('direct')
    const client = await connect(['--root-dir', root, '--user', 'alice', '--direct-edit'], settings)
    try {
      expect((await call(client, 'add_lesson', { lesson: 'Run the tests before saying done.' })).body).toMatchObject({ status: 'success', added: true, pending: false })
      expect((await call(client, 'add_lesson', { lesson: 'run the tests before saying done' })).body).toMatchObject({ added: false })
      expect((await call(client, 'record_preference', { preference: '缩进：2 空格' })).body).toMatchObject({ added: true })
      expect((await call(client, 'record_preference', { preference: '缩进：4 空格' })).body).toMatchObject({ added: true })
      expect(read(path.join(ws, 'memory', 'lessons.md'))).toBe('# Lessons / 行为约束\n\n- Run the tests before saying done.\n')
      expect(read(path.join(ws, 'memory', 'preferences.md'))).toBe('# Preferences / 用户偏好\n\n- 缩进：4 空格\n')
    } finally {
      await client.close()
    }
    const plain = await connect(['--library', lib, '--direct-edit'], settings)
    try {
      const r = await call(plain, 'add_lesson', { lesson: 'x rule' })
      expect(r.isError).toBe(true)
      expect(r.body.message).toMatch(/--memory DIR/)
    } finally {
      await plain.close()
    }
    const off = dataRoot('off', 'enable_long_term_memory=False\n')
    const disabled = await connect(['--root-dir', off.root, '--user', 'alice', '--direct-edit'], off.settings)
    try {
      expect((await call(disabled, 'add_lesson', { lesson: 'y rule' })).body.message).toBe('Skill tools are only available when long-term memory is enabled')
      expect(fs.existsSync(path.join(off.ws, 'memory'))).toBe(false)
    } finally {
      await disabled.close()
    }
  }, 60_000)

  it('two servers writing memory at once lose nothing (direct and proposals)', async () => {
    const { root, ws, lib, settings } = dataRoot('concurrent')
    const N = 12
    const servers = await Promise.all([
      connect(['--root-dir', root, '--user', 'alice', '--direct-edit'], settings, 'one'),
      connect(['--root-dir', root, '--user', 'alice', '--direct-edit'], settings, 'two')
    ])
    try {
      await Promise.all(
        servers.map((c, s) =>
          Promise.all(Array.from({ length: N }, (_, i) => call(c, i % 2 ? 'add_lesson' : 'record_preference', i % 2 ? { lesson: `lesson ${s}-${i}: ${distinct(s, i)}` } : { preference: `pref_${s}_${i}: value ${i}` })))
        )
      )
      const lessons = read(path.join(ws, 'memory', 'lessons.md'))!
      const prefs = read(path.join(ws, 'memory', 'preferences.md'))!
      const longTerm = read(path.join(ws, 'memory', 'long-term.md'))!
      for (let s = 0; s < 2; s++) {
        for (let i = 0; i < N; i++) {
          if (i % 2) expect(lessons).toContain(`- lesson ${s}-${i}:`)
          else {
            expect(prefs).toContain(`- pref_${s}_${i}: value ${i}\n`)
            expect(longTerm).toContain(`- pref_${s}_${i}: value ${i}\n`)
          }
        }
      }
      expect(lessons.match(/^- /gm)).toHaveLength(N)
      expect(prefs.match(/^- /gm)).toHaveLength(N)
      // no temp file left beside them
      expect(fs.readdirSync(path.join(ws, 'memory')).sort()).toEqual(['lessons.md', 'long-term.md', 'preferences.md'])
    } finally {
      await Promise.all(servers.map((c) => c.close()))
    }
    // proposal mode: two servers proposing at once, every proposal kept in the plan
    const proposers = await Promise.all([connect(['--root-dir', root, '--user', 'alice'], settings, 'p1'), connect(['--root-dir', root, '--user', 'alice'], settings, 'p2')])
    try {
      const answers = await Promise.all(proposers.map((c, s) => Promise.all(Array.from({ length: 6 }, (_, i) => call(c, 'record_preference', { preference: `topic_${s}_${i}: on` })))))
      expect(answers.flat().every((a) => a.body.pending === true)).toBe(true)
      const plan = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: { kind: string }[] }
      expect(plan.proposals.filter((p) => p.kind === 'memory')).toHaveLength(12)
    } finally {
      await Promise.all(proposers.map((c) => c.close()))
    }
  }, 90_000)
})

describe('memory evolve from two processes at once (seed 003)', () => {
  it('each lesson, preference and note lands once in the review queue', async () => {
    const { root, ws, lib } = dataRoot('evolve-twice')
    const { writeEvolveSessions } = await import('../memory/evolve-fixtures')
    const sessions = path.join(root, 'sessions')
    writeEvolveSessions(sessions)
    const args = [BIN, 'memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--json']
    const [a, b] = await Promise.all([run(process.execPath, args), run(process.execPath, args)])
    const proposed = [a, b].flatMap((r) => (JSON.parse(r.stdout) as { proposed: { id: string }[] }).proposed)
    const plan = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: { id: string; kind: string; evidence: { memory: { entries: string[] } } }[] }
    const memory = plan.proposals.filter((p) => p.kind === 'memory')
    // 2 lessons from the critic, 1 for the invented tools, 5 preferences, 1 tool note: once each, whoever proposed it
    expect(memory).toHaveLength(9)
    expect(proposed.map((p) => p.id).sort()).toEqual(memory.map((p) => p.id).sort())
    const entries = memory.flatMap((p) => p.evidence.memory.entries)
    expect(new Set(entries).size).toBe(entries.length)
  }, 60_000)
})
