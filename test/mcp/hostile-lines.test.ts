/**
 * `skillbench mcp` as a real process fed what a hostile or broken client sends: a request line over 10 MiB (it used
 * to end the server silently), text that is not JSON, a batch, `"jsonrpc": "1.0"`, an object id, `__proto__` as a
 * tool name. Each gets a JSON-RPC error reply, and the server answers the next good request.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkLine, leadingId } from '../../src/main/mcp/line-guard'
import { SKILL_TOOL_NAMES } from '../../src/main/tools/schemas'
import { makeLibrary } from './fixtures'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const tmpDirs: string[] = []
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})

interface Reply {
  id: string | number | null
  result?: Record<string, unknown> & { isError?: boolean; content?: { text: string }[] }
  error?: { code: number; message: string }
}

const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }

const errorOf = (line: string): { code: number; message: string } => {
  const r = checkLine(line, SKILL_TOOL_NAMES)
  if (!r || !('error' in r)) throw new Error(`no error for ${line}`)
  return r.error
}

describe('checkLine (pure)', () => {
  it('passes good messages and refuses each bad shape with its code', () => {
    expect(checkLine(JSON.stringify(init), SKILL_TOOL_NAMES)).toBeNull()
    expect(checkLine('{"jsonrpc":"2.0","method":"notifications/initialized"}', SKILL_TOOL_NAMES)).toBeNull()
    expect(checkLine('{"jsonrpc":"2.0","id":3,"result":{}}', SKILL_TOOL_NAMES)).toBeNull()
    expect(checkLine('   ', SKILL_TOOL_NAMES)).toBeNull()
    expect(errorOf('{nope').code).toBe(-32700)
    expect(errorOf('[{"jsonrpc":"2.0","id":1,"method":"ping"}]').message).toMatch(/batches are not supported/)
    expect(checkLine('{"jsonrpc":"1.0","id":7,"method":"ping"}', SKILL_TOOL_NAMES)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid request: "jsonrpc" must be "2.0" (got "1.0")' } })
    expect(checkLine('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', SKILL_TOOL_NAMES)).toEqual(expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }))
    const unknown = { status: 'error', message: `unknown tool: "__proto__" (the tools are ${SKILL_TOOL_NAMES.join(', ')})`, message_code: 'mcp.unknown_tool', params: { name: '"__proto__"', tools: SKILL_TOOL_NAMES.join(', ') } }
    expect(checkLine('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"__proto__","arguments":{}}}', SKILL_TOOL_NAMES)).toEqual({ jsonrpc: '2.0', id: 2, result: { isError: true, content: [{ type: 'text', text: JSON.stringify(unknown, null, 2) }], structuredContent: unknown } })
    expect(checkLine('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"query_skill","arguments":{"query":"x"}}}', SKILL_TOOL_NAMES)).toBeNull()
    expect(leadingId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaaa')).toBe(42)
    expect(leadingId('{"id":"ab\\"c","x":')).toBe('ab"c')
    expect(leadingId('{"params":{"x":"aaa')).toBeNull()
  })
})

describe('skillbench mcp fed hostile lines', () => {
  it('answers each with a JSON-RPC error and stays up for the next request', async () => {
    const lib = await makeLibrary()
    tmpDirs.push(lib.dir)
    const settings = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-mcp-hostile-'))
    tmpDirs.push(settings)
    const child = spawn(process.execPath, [BIN, 'mcp', '--library', lib.dir], { env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CONFIG_DIR: settings, SKILLBENCH_CACHE_DIR: path.join(settings, 'cache') }, stdio: ['pipe', 'pipe', 'pipe'] })
    const replies: Reply[] = []
    let out = ''
    let stderr = ''
    const waiters: { id: string | number | null; n: number; resolve: () => void }[] = []
    const check = (): void => {
      for (const w of [...waiters]) {
        if (replies.filter((r) => r.id === w.id).length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve()
        }
      }
    }
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      let nl
      while ((nl = out.indexOf('\n')) !== -1) {
        replies.push(JSON.parse(out.slice(0, nl)) as Reply)
        out = out.slice(nl + 1)
      }
      check()
    })
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    const waitFor = (id: string | number | null, n = 1): Promise<void> =>
      new Promise((resolve, reject) => {
        waiters.push({ id, n, resolve })
        check()
        void exited.then(() => reject(new Error(`the server exited before answering ${String(id)}; stderr: ${stderr}`)))
      })
    const send = (line: string): void => void child.stdin.write(line + '\n')

    send(JSON.stringify(init))
    await waitFor(1)
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
    // 11 MiB in one line, written in pieces as a pipe delivers it
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'query_skill', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } } })
    for (let i = 0; i < huge.length; i += 1 << 20) child.stdin.write(huge.slice(i, i + (1 << 20)))
    child.stdin.write('\n')
    await waitFor(99)
    send('{this is not json')
    send('[{"jsonrpc":"2.0","id":5,"method":"ping"}]')
    send('{"jsonrpc":"1.0","id":6,"method":"ping"}')
    send('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}')
    send('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"__proto__","arguments":{}}}')
    await waitFor(null, 3)
    await waitFor(6)
    await waitFor(8)
    // still up: a real request gets its real answer
    send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/list' }))
    await waitFor(10)
    child.stdin.end()
    expect(await exited).toBe(0)

    const byId = (id: string | number | null): Reply[] => replies.filter((r) => r.id === id)
    expect(byId(99)[0]!.error).toEqual({ code: -32600, message: expect.stringMatching(/over the 10485760-byte limit of one line/) })
    expect(byId(null).map((r) => r.error!.code)).toEqual([-32700, -32600, -32600])
    expect(byId(6)[0]!.error!.message).toMatch(/"jsonrpc" must be "2.0"/)
    expect(byId(8)[0]!.result).toMatchObject({ isError: true, structuredContent: { status: 'error', message: expect.stringMatching(/^unknown tool: "__proto__"/), message_code: 'mcp.unknown_tool' } })
    // the five skill tools and the two memory tools (seed 003)
    expect((byId(10)[0]!.result!.tools as unknown[]).length).toBe(7)
    expect(stderr).toMatch(/refused a request line of \d+ bytes/)
  }, 60_000)
})
