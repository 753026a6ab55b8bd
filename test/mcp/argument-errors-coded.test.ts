/**
 * A tool call whose arguments do not fit the tool's input schema is answered like every other refusal of the server:
 * `{status: 'error', message, message_code, params}` (text and structured content alike), `mcp.invalid_args` with
 * the tool and one `mcp.arg_*` per problem (field, what is expected, what came) — not the SDK's English "MCP error
 * -32602: Input validation error: …". A real `skillbench mcp` process, spawned by the SDK's own client over stdio.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishText, type MessageCode, type MessageParams, type MessageRef } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { childEnv } from '../helpers/mcp-env'
import { hashTree, makeLibrary } from './fixtures'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-mcp-args-'))

interface Answer {
  status: string
  message: string
  message_code?: MessageCode
  params?: MessageParams
}

describe('tool arguments that fail the input schema, answered by code', () => {
  let lib: Awaited<ReturnType<typeof makeLibrary>>
  let client: Client
  beforeAll(async () => {
    lib = await makeLibrary(path.join(tmp, 'lib'))
    const settings = path.join(tmp, 'settings')
    fs.mkdirSync(settings)
    const memory = path.join(tmp, 'ws')
    fs.mkdirSync(path.join(memory, 'memory'), { recursive: true })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--library', lib.dir, '--memory', memory],
      cwd: PROJECT,
      stderr: 'pipe',
      env: childEnv({ SKILLBENCH_CONFIG_DIR: settings })
    })
    client = new Client({ name: 'args', version: '1.0.0' })
    await client.connect(transport)
  })
  afterAll(async () => {
    await client?.close()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  /** The answer to a call: an error, the same JSON in the text and the structured content, its English from its code. */
  async function refused(name: string, args: Record<string, unknown>): Promise<Answer & { problem: MessageRef; zh: string }> {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown }
    expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
    const body = JSON.parse(r.content[0]!.text) as Answer
    expect(r.structuredContent).toEqual(body)
    expect(body.status).toBe('error')
    expect(body.message_code, body.message).toBeDefined()
    expect(englishText({ messageCode: body.message_code!, params: body.params! })).toBe(body.message)
    expect(body.message).not.toMatch(/MCP error|-32602|Input validation error/)
    return { ...body, problem: body.params!.problems as MessageRef, zh: translateMessage({ messageCode: body.message_code, params: body.params }, body.message, 'zh') }
  }

  it('a wrong type, a missing field, an unknown enum value, an unknown key, a bad list item, a number out of range', async () => {
    const before = hashTree(lib.dir)

    const wrongType = await refused('rate_skill', { skill_id: lib.ids.calc, rating: '0.5; rm -rf /' })
    expect(wrongType.message).toBe('invalid arguments for rate_skill: rating must be of type number (got string); nothing was done')
    expect(wrongType.message_code).toBe('mcp.invalid_args')
    expect(wrongType.params).toEqual({ tool: 'rate_skill', problems: { messageCode: 'mcp.arg_type', params: { field: 'rating', expected: 'number', got: 'string' } } })
    expect(wrongType.zh).toBe('rate_skill 的参数无效：rating 的类型必须是 number（收到的是 string）；未做任何操作')

    const missing = await refused('rate_skill', { skill_id: lib.ids.calc })
    expect(missing.message).toBe('invalid arguments for rate_skill: rating is required (type number); nothing was done')
    expect(missing.problem).toEqual({ messageCode: 'mcp.arg_missing', params: { field: 'rating', expected: 'number' } })
    expect(missing.zh).toBe('rate_skill 的参数无效：缺少必填参数 rating（类型 number）；未做任何操作')

    const enumValue = await refused('edit_skill', { skill_id: lib.ids.calc, edit_mode: 'overwrite_everything', code_edit: 'x' })
    expect(enumValue.problem).toEqual({ messageCode: 'mcp.arg_not_one_of', params: { field: 'edit_mode', expected: 'full_replace, append, lines_replace', got: '"overwrite_everything"' } })
    expect(enumValue.message).toBe('invalid arguments for edit_skill: edit_mode must be one of full_replace, append, lines_replace (got "overwrite_everything"); nothing was done')
    expect(enumValue.zh).toBe('edit_skill 的参数无效：edit_mode 必须是 full_replace, append, lines_replace 之一（收到的是 "overwrite_everything"）；未做任何操作')

    const unknownKey = await refused('edit_skill', { skill_id: lib.ids.calc, edit_mode: 'append', code_edit: 'x', extra: 1 })
    expect(unknownKey.problem).toEqual({ messageCode: 'mcp.arg_unknown', params: { field: 'extra', tool: 'edit_skill', expected: 'skill_id, edit_mode, code_edit, old_code' } })

    const item = await refused('copy_skill_files', { skill_id: lib.ids.calc, file_paths: ['a.py', 7] })
    expect(item.problem).toEqual({ messageCode: 'mcp.arg_type', params: { field: 'file_paths[1]', expected: 'string', got: 'number' } })

    const range = await refused('rate_skill', { skill_id: lib.ids.calc, rating: 5 })
    expect(range.problem).toEqual({ messageCode: 'mcp.arg_max', params: { field: 'rating', expected: 1, got: '5' } })
    expect(range.zh).toBe('rate_skill 的参数无效：rating 不能大于 1（收到的是 5）；未做任何操作')

    // the memory tools too
    const lesson = await refused('add_lesson', { lesson: 42 })
    expect(lesson.params).toEqual({ tool: 'add_lesson', problems: { messageCode: 'mcp.arg_type', params: { field: 'lesson', expected: 'string', got: 'number' } } })

    expect(hashTree(lib.dir)).toEqual(before)
  })

  it('several problems at once: each its own item, in the order zod found them, worded in the same language', async () => {
    const r = await refused('edit_skill', { skill_id: 7, edit_mode: 'nope' })
    expect(r.message).toBe(
      'invalid arguments for edit_skill: skill_id must be of type string (got number); edit_mode must be one of full_replace, append, lines_replace (got "nope"); code_edit is required (type string); nothing was done'
    )
    expect(r.zh).toBe(
      'edit_skill 的参数无效：skill_id 的类型必须是 string（收到的是 number）；edit_mode 必须是 full_replace, append, lines_replace 之一（收到的是 "nope"）；缺少必填参数 code_edit（类型 string）；未做任何操作'
    )
  })

  it('an unknown tool is refused by code as well (mcp.unknown_tool), and a valid call still gets its answer', async () => {
    const unknown = (await client.callTool({ name: 'format_disk', arguments: {} })) as { isError?: boolean; structuredContent?: Answer }
    expect(unknown.isError).toBe(true)
    const tools = 'query_skill, rate_skill, edit_skill, delete_skill, copy_skill_files, add_lesson, record_preference'
    expect(unknown.structuredContent).toEqual({ status: 'error', message: `unknown tool: "format_disk" (the tools are ${tools})`, message_code: 'mcp.unknown_tool', params: { name: '"format_disk"', tools } })
    expect(translateMessage({ messageCode: 'mcp.unknown_tool', params: unknown.structuredContent!.params }, '', 'zh')).toBe(`未知的工具："format_disk"（可用的工具：${tools}）`)
    const ok = (await client.callTool({ name: 'query_skill', arguments: { query: 'calculator' } })) as { isError?: boolean; structuredContent?: Answer }
    expect(ok.isError).toBe(false)
    expect(ok.structuredContent).toMatchObject({ status: 'success', message_code: 'tool.found' })
  })
})
