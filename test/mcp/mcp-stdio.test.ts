/**
 * The real thing: the SDK's MCP client spawns `node bin/skillbench.mjs mcp …` and talks over stdio. The .mjs entry
 * on purpose: it is the one agents' existing MCP configurations name (bin/skillbench.cjs is tested everywhere else).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { openLibrary } from '../../src/main/store/library'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SKILL_TOOL_SCHEMAS } from '../../src/main/tools/schemas'
import { hashTree, makeLibrary, skillFile } from './fixtures'
import { childEnv } from '../helpers/mcp-env'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.mjs')
const tmpDirs: string[] = []

// The server reads the workbench settings; point it at an empty settings dir so the user's own do not leak in.
const SETTINGS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-mcp-settings-'))
tmpDirs.push(SETTINGS_DIR)
const ENV = childEnv({ SKILLBENCH_CONFIG_DIR: SETTINGS_DIR })

async function connect(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: PROJECT, stderr: 'pipe', env: ENV })
  let err = ''
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()))
  const client = new Client({ name: 'skillbench-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => err }
}

type Answer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] }
const text = (r: Answer): string => r.content.map((c) => c.text ?? '').join('')

afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('skillbench mcp over stdio (library mode)', () => {
  let lib: Awaited<ReturnType<typeof makeLibrary>>
  let client: Client
  let stderr: () => string
  beforeAll(async () => {
    lib = await makeLibrary()
    tmpDirs.push(lib.dir)
    ;({ client, stderr } = await connect(['--library', lib.dir]))
  })
  afterAll(async () => {
    await client?.close()
  })

  it('validates a prompt argument with its schema (zod is bundled into the build; the SDK keeps its own)', async () => {
    const zh = await client.getPrompt({ name: 'skill-tools-guide', arguments: { lang: 'zh' } })
    expect(JSON.stringify(zh.messages)).toContain('技能库')
    await expect(client.getPrompt({ name: 'skill-tools-guide', arguments: { lang: 'fr' } })).rejects.toThrow(/lang/)
  })

  it('lists the five skill tools with the same parameters as SKILL_TOOL_SCHEMAS (and the two memory tools)', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['add_lesson', 'copy_skill_files', 'delete_skill', 'edit_skill', 'query_skill', 'rate_skill', 'record_preference'])
    for (const s of SKILL_TOOL_SCHEMAS) {
      const t = tools.find((x) => x.name === s.function.name)!
      expect(t.description).toBe(s.function.description)
      expect(Object.keys(t.inputSchema.properties ?? {}).sort()).toEqual(Object.keys(s.function.parameters.properties).sort())
      expect([...(t.inputSchema.required ?? [])].sort()).toEqual([...s.function.parameters.required].sort())
      for (const [k, p] of Object.entries(s.function.parameters.properties)) {
        const got = (t.inputSchema.properties as Record<string, Record<string, unknown>>)[k]!
        expect(got.type ?? 'string').toBe(p.type ?? 'string')
        expect(got.description).toBe(p.description)
        if (p.enum) expect(got.enum).toEqual(p.enum)
        if (p.minimum !== undefined) expect(got.minimum).toBe(p.minimum)
        if (p.maximum !== undefined) expect(got.maximum).toBe(p.maximum)
      }
    }
    expect(stderr()).toContain('[skillbench mcp] serving')
  })

  it('queries the library and the best match comes first (the use counts in every process; fetch_count written as upstream once folded)', async () => {
    const r = (await client.callTool({ name: 'query_skill', arguments: { query: 'write a python calculator with tests' } })) as Answer
    expect(r.isError).toBe(false)
    const answer = JSON.parse(text(r)) as { status: string; skills: { skill_id: string; fetch_count: number }[] }
    expect(answer.status).toBe('success')
    expect(answer.skills[0]!.skill_id).toBe(lib.ids.calc)
    expect(answer.skills[0]!.fetch_count).toBe(1)
    const here = await openLibrary(lib.dir)
    expect((await here.get(lib.ids.calc)).fetch_count).toBe(1)
    await here.foldUsage()
    expect(fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')).toMatch(/^fetch_count: 1$/m)
    expect((await (await openLibrary(lib.dir)).get(lib.ids.calc)).fetch_count).toBe(1)
  })

  it('rates a skill and the file changes on disk', async () => {
    const file = skillFile(lib.dir, lib.ids.joke)
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^quality_index: 0.5$/m)
    const r = (await client.callTool({ name: 'rate_skill', arguments: { skill_id: lib.ids.joke, rating: 1 } })) as Answer
    expect(r.isError).toBe(false)
    expect(r.structuredContent).toMatchObject({ status: 'success', new_quality_index: 0.65 })
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^quality_index: 0.65$/m)
  })

  it('malformed calls get an error and write nothing', async () => {
    const before = hashTree(lib.dir)
    const bad: [string, Record<string, unknown>][] = [
      ['rate_skill', { skill_id: lib.ids.calc, rating: 5 }],
      ['rate_skill', { skill_id: '../../etc/passwd', rating: 1 }],
      ['rate_skill', { skill_id: '999999', rating: 1 }],
      ['rate_skill', { skill_id: lib.ids.calc }],
      ['rate_skill', { skill_id: lib.ids.calc, rating: '0.5; rm -rf /' }],
      ['edit_skill', { skill_id: lib.ids.calc, edit_mode: 'overwrite_everything', code_edit: 'x' }],
      ['edit_skill', { skill_id: lib.ids.calc, edit_mode: 'append', code_edit: 'x', extra: 1 }],
      ['delete_skill', {}],
      ['copy_skill_files', { skill_id: lib.ids.calc, file_paths: 'not-a-list' }],
      ['query_skill', {}]
    ]
    for (const [name, args] of bad) {
      const r = (await client.callTool({ name, arguments: args })) as Answer
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
      expect(text(r).length).toBeGreaterThan(0)
    }
    const unknown = (await client.callTool({ name: 'format_disk', arguments: {} })) as Answer
    expect(unknown.isError).toBe(true)
    expect(hashTree(lib.dir)).toEqual(before)
  })

  it('edit and delete only make pending proposals by default; the skill files stay byte-identical', async () => {
    const before = hashTree(lib.dir)
    const original = fs.readFileSync(skillFile(lib.dir, lib.ids.git), 'utf8')
    const r = (await client.callTool({
      name: 'edit_skill',
      arguments: { skill_id: lib.ids.git, edit_mode: 'append', code_edit: 'Never force-push a shared branch.\n' }
    })) as Answer
    expect(r.isError).toBe(false)
    expect(r.structuredContent).toMatchObject({ status: 'success', pending: true })
    const d = (await client.callTool({ name: 'delete_skill', arguments: { skill_id: lib.ids.joke } })) as Answer
    expect(d.structuredContent).toMatchObject({ status: 'success', pending: true })
    const after = hashTree(lib.dir)
    const newFiles = Object.keys(after).filter((k) => !(k in before))
    expect(newFiles.every((f) => f.startsWith(path.join('.skillbench', 'pending')))).toBe(true)
    expect(newFiles).toHaveLength(2)
    for (const k of Object.keys(before)) expect(after[k], k).toBe(before[k])
    const edit = JSON.parse(fs.readFileSync(path.join(lib.dir, (r.structuredContent as { proposal_path: string }).proposal_path), 'utf8'))
    expect(edit).toMatchObject({ kind: 'edit', status: 'pending', author: 'mcp:skillbench-test', members: [{ skill_id: lib.ids.git }] })
    expect(edit.changes[0].before).toBe(original)
    expect(edit.changes[0].after).toContain('continue the rebase.\nNever force-push a shared branch.\n')
    expect(edit.changes[0].after).toContain(`skill_id: '${lib.ids.git}'`)
  })

  it('serves the skills as skill:// resources, read-only', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri).sort()).toEqual([lib.ids.calc, lib.ids.git, lib.ids.joke].map((id) => `skill://${id}`).sort())
    const before = hashTree(lib.dir)
    const read = await client.readResource({ uri: `skill://${lib.ids.git}` })
    expect((read.contents[0] as { text: string }).text).toBe(fs.readFileSync(skillFile(lib.dir, lib.ids.git), 'utf8'))
    await expect(client.readResource({ uri: 'skill://..%2F..%2Fetc' })).rejects.toThrow()
    expect(hashTree(lib.dir)).toEqual(before)
  })
})

describe('skillbench mcp with long-term memory disabled', () => {
  it('every skill tool answers the upstream error and nothing is written', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-mcp-root-'))
    tmpDirs.push(root)
    const lib = await makeLibrary(path.join(root, 'alice', 'general', 'experience'))
    fs.writeFileSync(path.join(root, 'config.txt'), '# AGIAgent\nLANG=zh\nenable_long_term_memory=False  # off\n')
    const before = hashTree(root)
    const { client, stderr } = await connect(['--root-dir', root, '--user', 'alice'])
    try {
      const calls: [string, Record<string, unknown>][] = [
        ['query_skill', { query: 'calculator' }],
        ['rate_skill', { skill_id: lib.ids.calc, rating: 1 }],
        ['edit_skill', { skill_id: lib.ids.calc, edit_mode: 'append', code_edit: 'x' }],
        ['delete_skill', { skill_id: lib.ids.calc }],
        ['copy_skill_files', { skill_id: lib.ids.calc, file_paths: ['a.py'] }]
      ]
      for (const [name, args] of calls) {
        const r = (await client.callTool({ name, arguments: args })) as Answer
        expect(r.isError, name).toBe(true)
        expect(JSON.parse(text(r)).message).toBe('Skill tools are only available when long-term memory is enabled')
      }
      expect(stderr()).toContain('DISABLED')
    } finally {
      await client.close()
    }
    expect(hashTree(root)).toEqual(before)
  })
})

/** `skillbench mcp` spawned on a library, sent `messages` as one script (stdin closed after): its exit code and stdout messages. */
async function runScript(libDir: string, messages: unknown[]): Promise<{ code: number | null; msgs: Record<string, unknown>[] }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--library', libDir], { cwd: PROJECT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...ENV } })
  let out = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  for (const msg of messages) child.stdin.write(JSON.stringify(msg) + '\n')
  child.stdin.end()
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, msgs: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) }
}

describe('stdout carries only the protocol', () => {
  it('every stdout line of a session is a JSON-RPC message', async () => {
    const lib = await makeLibrary()
    tmpDirs.push(lib.dir)
    const { code, msgs } = await runScript(lib.dir, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'rate_skill', arguments: { skill_id: 'nope', rating: 9 } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'query_skill', arguments: { query: 'git conflicts' } } }
    ])
    expect(code).toBe(0)
    expect(msgs.every((m) => m.jsonrpc === '2.0')).toBe(true)
    expect(msgs.map((m) => m.id as number).sort()).toEqual([1, 2, 3])
  })
  it('a script sending initialize and one query, then closing stdin, gets both answers (the SDK is never loaded)', async () => {
    const lib = await makeLibrary()
    tmpDirs.push(lib.dir)
    const { code, msgs } = await runScript(lib.dir, [
      { jsonrpc: '2.0', id: 'a', method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'script', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'query_skill', arguments: { query: 'python calculator' } } }
    ])
    expect(code).toBe(0)
    const results = msgs.map((m) => m.result as { protocolVersion?: string; structuredContent?: { skills: { skill_id: string }[] } })
    expect(msgs.map((m) => m.id)).toEqual(['a', 'b'])
    expect(results[0]?.protocolVersion).toBe('2024-11-05')
    expect(results[1]?.structuredContent?.skills[0]?.skill_id).toBe(lib.ids.calc)
  })
})
