/**
 * invalidArguments (pure) on the checks the skill tools' schemas do not use yet but the schema conversion supports
 * (lengths, list sizes, exclusive bounds, patterns, nested objects), and the server's own tools/call answer to an
 * unknown tool over the SDK's in-memory transport (over stdio the line guard answers it, with the same words).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fs from 'node:fs'
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js'
import { describe, expect, it, vi } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { invalidArguments } from '../../src/main/mcp/argument-problems'
import { zodObjectFromJsonSchema, type JsonSchemaLite } from '../../src/main/mcp/json-schema-to-zod'
import { createSkillMcpServer } from '../../src/main/mcp/server'
import { openLibrary } from '../../src/main/store/library'
import { makeLibrary } from './fixtures'

const SCHEMA: JsonSchemaLite = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
    weight: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
    count: { type: 'integer', minimum: 1 },
    note: { type: ['string', 'null'] },
    where: { type: 'object', properties: { line: { type: 'integer' } }, required: ['line'], additionalProperties: false }
  },
  required: ['name'],
  additionalProperties: false
}

/** The problems of a call with these arguments, each as code and params, and the whole answer's English. */
function problems(args: Record<string, unknown>): { items: MessageRef[]; text: string; zh: string } {
  const parsed = zodObjectFromJsonSchema(SCHEMA).safeParse(args)
  expect(parsed.success).toBe(false)
  const answer = invalidArguments('demo', SCHEMA, args, parsed.error!.issues)
  expect(answer.messageCode).toBe('mcp.invalid_args')
  expect(englishText(answer)).toBe(answer.text)
  const items: MessageRef[] = []
  let ref = answer.params.problems as MessageRef
  while (ref.messageCode === 'text.list') {
    items.push(ref.params.first as MessageRef)
    ref = ref.params.rest as MessageRef
  }
  items.push(ref)
  return { items, text: answer.text, zh: translateMessage(answer, answer.text, 'zh') }
}

describe('invalidArguments', () => {
  it('says each check by its own code, with the field, the bound and what came', () => {
    expect(problems({ name: 'a' }).items).toEqual([{ messageCode: 'mcp.arg_min_length', params: { field: 'name', expected: 2, got: 1 } }])
    expect(problems({ name: 'abcdefg' }).items).toEqual([{ messageCode: 'mcp.arg_max_length', params: { field: 'name', expected: 5, got: 7 } }])
    expect(problems({ name: 'AB' }).items).toEqual([{ messageCode: 'mcp.arg_pattern', params: { field: 'name', expected: '^[a-z]+$', got: '"AB"' } }])
    expect(problems({ name: 'ab', tags: [] }).items).toEqual([{ messageCode: 'mcp.arg_min_items', params: { field: 'tags', expected: 1, got: 0 } }])
    expect(problems({ name: 'ab', tags: ['a', 'b', 'c'] }).items).toEqual([{ messageCode: 'mcp.arg_max_items', params: { field: 'tags', expected: 2, got: 3 } }])
    expect(problems({ name: 'ab', weight: 0 }).items).toEqual([{ messageCode: 'mcp.arg_above', params: { field: 'weight', expected: 0, got: '0' } }])
    expect(problems({ name: 'ab', weight: 10 }).items).toEqual([{ messageCode: 'mcp.arg_below', params: { field: 'weight', expected: 10, got: '10' } }])
    expect(problems({ name: 'ab', count: 0 }).items).toEqual([{ messageCode: 'mcp.arg_min', params: { field: 'count', expected: 1, got: '0' } }])
    // the type the tool advertises, not zod's own word for it
    expect(problems({ name: 'ab', count: 'two' }).items).toEqual([{ messageCode: 'mcp.arg_type', params: { field: 'count', expected: 'integer', got: 'string' } }])
    expect(problems({ name: 'ab', note: 3 }).items).toEqual([{ messageCode: 'mcp.arg_type', params: { field: 'note', expected: 'string|null', got: 'number' } }])
    expect(problems({ name: null }).items).toEqual([{ messageCode: 'mcp.arg_type', params: { field: 'name', expected: 'string', got: 'null' } }])
  })

  it('names a nested field by its path, and an unknown key inside an object with that object\'s parameters', () => {
    expect(problems({ name: 'ab', where: {} }).items).toEqual([{ messageCode: 'mcp.arg_missing', params: { field: 'where.line', expected: 'integer' } }])
    const r = problems({ name: 'ab', where: { line: 1, col: 2 }, extra: true })
    expect(r.items).toEqual([
      { messageCode: 'mcp.arg_unknown', params: { field: 'where.col', tool: 'demo', expected: 'line' } },
      { messageCode: 'mcp.arg_unknown', params: { field: 'extra', tool: 'demo', expected: 'name, tags, weight, count, note, where' } }
    ])
    expect(r.text).toBe('invalid arguments for demo: where.col is not a parameter of demo (its parameters: line); extra is not a parameter of demo (its parameters: name, tags, weight, count, note, where); nothing was done')
    expect(r.zh).toBe('demo 的参数无效：where.col 不是 demo 的参数（它的参数：line）；extra 不是 demo 的参数（它的参数：name, tags, weight, count, note, where）；未做任何操作')
  })

  it('cuts a long value short in what it sends back', () => {
    const [item] = problems({ name: 'x'.repeat(500) }).items
    expect(item!.messageCode).toBe('mcp.arg_max_length')
    const [pattern] = problems({ name: 'ABC' + 'd'.repeat(2) }).items
    expect(pattern!.params.got).toBe('"ABCdd"')
    const long = invalidArguments('demo', SCHEMA, { name: 'Z'.repeat(300) }, [{ code: 'invalid_format', format: 'regex', pattern: '^[a-z]+$', path: ['name'], message: 'x', input: undefined }])
    const got = ((long.params.problems as MessageRef).params.got as string)
    expect(got).toHaveLength(61)
    expect(got.endsWith('…')).toBe(true)
  })
})

describe('the server answers tools/call itself', () => {
  it('an unknown tool gets mcp.unknown_tool in the tool answer shape (in-memory transport: no line guard before it)', async () => {
    const lib = await makeLibrary()
    const server = createSkillMcpServer({ store: await openLibrary(lib.dir) })
    const [a, b] = InMemoryTransport.createLinkedPair()
    await server.connect(a)
    const client = new Client({ name: 'inproc', version: '1' })
    await client.connect(b)
    try {
      const r = (await client.callTool({ name: 'constructor', arguments: {} })) as { isError?: boolean; structuredContent?: Record<string, unknown> }
      expect(r.isError).toBe(true)
      expect(r.structuredContent).toMatchObject({ status: 'error', message_code: 'mcp.unknown_tool', params: { name: '"constructor"' } })
      const bad = (await client.callTool({ name: 'rate_skill', arguments: { skill_id: lib.ids.calc, rating: -1 } })) as { structuredContent?: Record<string, unknown> }
      expect(bad.structuredContent).toEqual({
        status: 'error',
        message: 'invalid arguments for rate_skill: rating must be at least 0 (got -1); nothing was done',
        message_code: 'mcp.invalid_args',
        params: { tool: 'rate_skill', problems: { messageCode: 'mcp.arg_min', params: { field: 'rating', expected: 0, got: '-1' } } }
      })
    } finally {
      await client.close()
      fs.rmSync(lib.dir, { recursive: true, force: true })
    }
  })

  it('a tool disabled through the SDK (RegisteredTool.disable) is left out of tools/list and answered as unknown', async () => {
    const lib = await makeLibrary()
    // the SDK's own handle on each tool, as registerTool returns it
    const registered = new Map<string, RegisteredTool>()
    const register = McpServer.prototype.registerTool as (this: McpServer, ...args: unknown[]) => RegisteredTool
    const spy = vi.spyOn(McpServer.prototype, 'registerTool').mockImplementation(function (this: McpServer, ...args: unknown[]) {
      const tool = register.apply(this, args)
      registered.set(args[0] as string, tool)
      return tool
    } as never)
    const server = createSkillMcpServer({ store: await openLibrary(lib.dir) })
    spy.mockRestore()
    const [a, b] = InMemoryTransport.createLinkedPair()
    await server.connect(a)
    const client = new Client({ name: 'inproc', version: '1' })
    await client.connect(b)
    const rate = { name: 'rate_skill', arguments: { skill_id: lib.ids.calc, rating: 0.8 } }
    try {
      registered.get('rate_skill')!.disable()
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names).not.toContain('rate_skill')
      expect(names).toContain('query_skill')
      const off = (await client.callTool(rate)) as { isError?: boolean; structuredContent?: Record<string, unknown> }
      expect(off.isError).toBe(true)
      expect(off.structuredContent).toMatchObject({ status: 'error', message_code: 'mcp.unknown_tool', params: { name: '"rate_skill"', tools: names.join(', ') } })
      // enabled again: listed and answered
      registered.get('rate_skill')!.enable()
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('rate_skill')
      const on = (await client.callTool(rate)) as { isError?: boolean; structuredContent?: Record<string, unknown> }
      expect(on.isError).toBe(false)
      expect(on.structuredContent).toMatchObject({ status: 'success' })
    } finally {
      await client.close()
      fs.rmSync(lib.dir, { recursive: true, force: true })
    }
  })
})
