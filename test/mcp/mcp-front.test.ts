/**
 * The stdio front of `skillbench mcp` (src/main/mcp/stdio-front.ts): what it answers before the MCP SDK has
 * loaded must be what the SDK server answers, and everything else must reach the SDK server in order.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { toolSettingsFrom } from '../../src/main/mcp/availability'
import { initializeResult, SUPPORTED_PROTOCOL_VERSIONS } from '../../src/main/mcp/handshake'
import { createSkillMcpServer, serveStdio } from '../../src/main/mcp/server'
import { plainInitialize, plainQueryCall, startStdioFront } from '../../src/main/mcp/stdio-front'
import { createToolAnswerer } from '../../src/main/mcp/tool-answers'
import { LibrarySearch } from '../../src/main/search/library-search'
import { openLibrary } from '../../src/main/store/library'
import { parseStored } from '../../src/main/workbench/settings-store'
import { CodedError } from '../../src/shared/api-error'
import { coded } from '../../src/shared/error-codes'
import { makeLibrary } from './fixtures'

const tmpDirs: string[] = []
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

type Msg = { jsonrpc: '2.0'; id?: string | number; method?: string; result?: Record<string, unknown>; error?: { message: string } }

const initialize = (id: number, protocolVersion: string): Msg & Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'front-test', version: '1' } }
})
const query = (id: number, text: string): Record<string, unknown> => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'query_skill', arguments: { query: text } } })

/** A front on in-memory pipes, with what it wrote parsed line by line. */
function pipes(): { stdin: PassThrough; stdout: PassThrough; send: (msg: unknown) => void; messages: () => Msg[]; next: (id: number) => Promise<Msg> } {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  let out = ''
  stdout.on('data', (c: Buffer) => (out += c.toString()))
  const messages = (): Msg[] =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Msg)
  const next = async (id: number): Promise<Msg> => {
    for (;;) {
      const found = messages().find((m) => m.id === id && !m.method)
      if (found) return found
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return { stdin, stdout, send: (msg) => void stdin.write(JSON.stringify(msg) + '\n'), messages, next }
}

async function library(): Promise<{ dir: string; root: string; env: NodeJS.ProcessEnv; ids: Awaited<ReturnType<typeof makeLibrary>>['ids'] }> {
  const lib = await makeLibrary()
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-front-cache-'))
  tmpDirs.push(lib.dir, cache)
  return { dir: lib.dir, root: fs.realpathSync(lib.dir), env: { SKILLBENCH_CACHE_DIR: cache }, ids: lib.ids }
}

describe('the handshake answered without the SDK', () => {
  it('knows the SDK’s protocol versions', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS)
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION)
  })
  it('answers initialize exactly as the SDK server does, for every version and for an unknown one', async () => {
    const { dir } = await library()
    const store = await openLibrary(dir)
    for (const version of [...SDK_VERSIONS, '1999-01-01']) {
      const server = createSkillMcpServer({ store })
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
      await server.connect(serverSide)
      const answer = new Promise<JSONRPCMessage>((resolve) => (clientSide.onmessage = resolve))
      await clientSide.start()
      await clientSide.send(initialize(1, version) as JSONRPCMessage)
      const sdk = (await answer) as Msg
      expect(sdk.result).toEqual(initializeResult(version))
      await server.close()
    }
  })
  it('leaves unusual messages to the SDK', () => {
    expect(plainInitialize(initialize(1, '2025-06-18'))).toEqual({ id: 1, protocolVersion: '2025-06-18' })
    expect(plainInitialize({ ...initialize(1, '2025-06-18'), jsonrpc: '1.0' })).toBeUndefined()
    expect(plainInitialize({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 'x', capabilities: { roots: true }, clientInfo: { name: 'a', version: '1' } } })).toBeUndefined()
    expect(plainInitialize({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 'x', capabilities: {}, clientInfo: { name: 'a' } } })).toBeUndefined()
    expect(plainQueryCall(query(2, 'git'))).toEqual({ id: 2, query: 'git' })
    expect(plainQueryCall({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'query_skill', arguments: { query: 'git', extra: 1 } } })).toBeUndefined()
    expect(plainQueryCall({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'query_skill', arguments: { query: 3 } } })).toBeUndefined()
    expect(plainQueryCall({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'query_skill', arguments: { query: 'git' }, _meta: { progressToken: 1 } } })).toBeUndefined()
    expect(plainQueryCall({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'rate_skill', arguments: { query: 'git' } } })).toBeUndefined()
  })
})

describe('the stdio front', () => {
  it('answers initialize before the library is even opened, and a query sent while the index opens gets the right answer', async () => {
    const { dir, root, env, ids } = await library()
    const io = pipes()
    const front = startStdioFront({ stdin: io.stdin, stdout: io.stdout })
    io.send(initialize(1, '2025-06-18'))
    io.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    io.send(query(2, 'resolve git merge conflicts'))
    io.stdin.end() // a script: everything sent at once
    // no tools and no index yet: initialize is answered, the query waits
    expect((await io.next(1)).result).toEqual(initializeResult('2025-06-18'))
    const search = new LibrarySearch(root, { keep: true, env, saveDelayMs: 0 })
    const opening = search.current()
    expect(search.peek()).toBeNull() // still opening when the query is handed over
    const store = await openLibrary(dir, { lazy: true, locate: (id) => search.peek()?.pathOf(id) })
    front.answerQueries(createToolAnswerer({ store, search }), opening)
    const answer = (await io.next(2)).result as { isError: boolean; structuredContent: { status: string; skills: { skill_id: string; fetch_count: number }[] } }
    expect(answer.isError).toBe(false)
    expect(answer.structuredContent.status).toBe('success')
    expect(answer.structuredContent.skills[0]?.skill_id).toBe(ids.git)
    // the same answer the SDK server's handler gives (same tool code): the fetch count moved on by one
    const again = await createToolAnswerer({ store, search })('query_skill', { query: 'resolve git merge conflicts' })
    const sc = again.structuredContent as typeof answer.structuredContent
    expect(sc.skills.map((s) => s.skill_id)).toEqual(answer.structuredContent.skills.map((s) => s.skill_id))
    expect(sc.skills[0]!.fetch_count).toBe(answer.structuredContent.skills[0]!.fetch_count + 1)
    // stdin ended with everything answered: the SDK is never needed
    expect(await front.sdkWanted).toBe(false)
    await front.drained()
    expect(io.messages().filter((m) => m.id !== undefined).map((m) => m.id)).toEqual([1, 2])
    search.close()
  })

  it('hands everything else to the SDK server in order, with one answer per request', async () => {
    const { dir, root, env } = await library()
    const io = pipes()
    const front = startStdioFront({ stdin: io.stdin, stdout: io.stdout })
    io.send(initialize(1, '2025-06-18'))
    io.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    io.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    io.send(query(3, 'calculator')) // after a request only the SDK answers: the SDK answers it too
    const search = new LibrarySearch(root, { keep: true, env })
    const store = await openLibrary(dir, { lazy: true, locate: (id) => search.peek()?.pathOf(id) })
    front.answerQueries(createToolAnswerer({ store, search }), search.current())
    expect(await front.sdkWanted).toBe(true)
    const handed = front.handOver()
    expect([...handed.answered]).toEqual([1])
    const served = serveStdio({ store, search, stdin: handed.stdin, stdout: io.stdout, answered: handed.answered, onListening: handed.start })
    const list = await io.next(2)
    expect((list.result as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual(['add_lesson', 'copy_skill_files', 'delete_skill', 'edit_skill', 'query_skill', 'rate_skill', 'record_preference'])
    expect(((await io.next(3)).result as { isError: boolean }).isError).toBe(false)
    io.send({ jsonrpc: '2.0', id: 4, method: 'ping' }) // arriving after the hand-over, through the front
    expect((await io.next(4)).result).toEqual({})
    io.stdin.end()
    await served
    await front.drained()
    // the SDK's own answer to initialize was dropped: one answer per request
    expect(io.messages().map((m) => m.id)).toEqual([1, 2, 3, 4])
    search.close()
  })

  it('answers a query whose tool threw as the SDK server does: the same answer, coded', async () => {
    const { dir } = await library()
    const store = await openLibrary(dir)
    for (const thrown of [new CodedError('not_found', coded('library.not_found', { path: '/gone' })), new Error('disk gone')]) {
      const remoteQuery = async (): Promise<never> => {
        throw thrown
      }
      // the SDK server (its own tools/call handler), over the in-memory transport
      const server = createSkillMcpServer({ store, remoteQuery })
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair()
      await server.connect(serverSide)
      const client = new Client({ name: 'front-test', version: '1' })
      await client.connect(clientSide)
      const sdk = await client.callTool({ name: 'query_skill', arguments: { query: 'calculator' } })
      await client.close()
      // the front, before the SDK has loaded
      const io = pipes()
      const front = startStdioFront({ stdin: io.stdin, stdout: io.stdout })
      front.answerQueries(createToolAnswerer({ store, remoteQuery }), Promise.resolve())
      io.send(query(7, 'calculator'))
      const early = (await io.next(7)).result
      io.stdin.end()
      await front.drained()
      expect(early).toEqual(sdk)
      expect(early).toMatchObject({ isError: true, structuredContent: { status: 'error', message: thrown.message } })
      // the code an error carries is in both (an error without one has none)
      const fields = thrown instanceof CodedError ? { message_code: 'library.not_found', params: { path: '/gone' } } : {}
      expect((early as { structuredContent: unknown }).structuredContent).toEqual({ status: 'error', message: thrown.message, ...fields })
    }
  })

  it('reads a Chinese query cut in the middle of a character between two chunks', async () => {
    const { dir, root, env, ids } = await library()
    const io = pipes()
    const front = startStdioFront({ stdin: io.stdin, stdout: io.stdout })
    const bytes = Buffer.from(JSON.stringify(query(5, '帮我写一个中文笑话')) + '\n')
    const cut = bytes.indexOf(Buffer.from('笑')) + 1 // inside the three bytes of 笑
    io.stdin.write(bytes.subarray(0, cut))
    io.stdin.write(bytes.subarray(cut))
    io.stdin.end()
    const search = new LibrarySearch(root, { keep: true, env })
    const store = await openLibrary(dir, { lazy: true, locate: (id) => search.peek()?.pathOf(id) })
    const real = createToolAnswerer({ store, search })
    const asked: unknown[] = []
    front.answerQueries((name, args) => (asked.push(args.query), real(name, args)), search.current())
    const answer = (await io.next(5)).result as { structuredContent: { skills: { skill_id: string }[] } }
    expect(asked).toEqual(['帮我写一个中文笑话'])
    expect(answer.structuredContent.skills[0]?.skill_id).toBe(ids.joke)
    expect(await front.sdkWanted).toBe(false)
    search.close()
  })

  it('loads the SDK when idle: the index is open and no early answer is in flight', async () => {
    const { dir, root, env } = await library()
    const io = pipes()
    const front = startStdioFront({ stdin: io.stdin, stdout: io.stdout })
    io.send(initialize(7, '2025-03-26'))
    const search = new LibrarySearch(root, { keep: true, env })
    const store = await openLibrary(dir, { lazy: true })
    front.answerQueries(createToolAnswerer({ store, search }), search.current())
    expect(await front.sdkWanted).toBe(true)
    expect(search.peek()).not.toBeNull()
    front.close()
    search.close()
  })
})

describe('the tool settings read without zod', () => {
  it('agree with the workbench’s own reading of the settings file', () => {
    const texts = [
      '{ not json',
      '[]',
      '{}',
      '{"settings": 3}',
      '{"settings": {"enableLongTermMemory": false}}',
      '{"settings": {"enableLongTermMemory": "no"}}',
      '{"settings": {"enableLongTermMemory": null, "proposalOnlyTools": {"edit": false}}}',
      '{"settings": {"proposalOnlyTools": {"edit": false, "delete": false}}}',
      '{"settings": {"proposalOnlyTools": {"edit": "false", "delete": false}}}',
      '{"settings": {"proposalOnlyTools": {"delete": false, "other": 1}}}',
      '{"settings": {"proposalOnlyTools": [false, false]}}',
      '{"settings": {"proposalOnlyTools": null, "enableLongTermMemory": true}}'
    ]
    for (const text of texts) {
      const full = parseStored(text)
      const light = toolSettingsFrom(text)
      expect(light, text).toEqual(full ? { enableLongTermMemory: full.settings.enableLongTermMemory, proposalOnlyTools: full.settings.proposalOnlyTools } : undefined)
    }
  })
})
