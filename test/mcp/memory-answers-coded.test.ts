/**
 * The memory tools' answers over MCP (add_lesson, record_preference) carry `message_code` + `params` beside their
 * unchanged English, like the skill tools' (tool.found, tool.rated…): real `skillbench mcp` processes over stdio (each a
 * child_process the SDK's transport spawns: the processes project) on
 * a data root, one writing at once (--direct-edit), one in proposal mode. The English re-renders from the code;
 * an agent's client (or a screen) words it in Chinese by the same code.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText, type MessageCode, type MessageParams } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { childEnv } from '../helpers/mcp-env'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-memory-answers-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

interface Answer {
  status: string
  message: string
  message_code?: MessageCode
  params?: MessageParams
  pending?: boolean
  proposal_id?: string
}

async function connect(args: string[], settings: string): Promise<{ client: Client; call: (name: string, a: Record<string, unknown>) => Promise<Answer> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: PROJECT, stderr: 'pipe', env: childEnv({ SKILLBENCH_CONFIG_DIR: settings }) })
  const client = new Client({ name: 'coded', version: '1.0.0' })
  await client.connect(transport)
  const call = async (name: string, a: Record<string, unknown>): Promise<Answer> => {
    const r = (await client.callTool({ name, arguments: a })) as { content: { text: string }[]; structuredContent?: unknown }
    const body = JSON.parse(r.content[0]!.text) as Answer
    expect(r.structuredContent).toEqual(body)
    return body
  }
  return { client, call }
}

/** The answer's English, its code and params, and its Chinese by that code. */
function said(a: Answer): { message: string; code: MessageCode | undefined; params: MessageParams | undefined; zh: string } {
  expect(a.message_code, `${a.message} has no code`).toBeDefined()
  expect(englishText({ messageCode: a.message_code!, params: a.params! })).toBe(a.message)
  return { message: a.message, code: a.message_code, params: a.params, zh: translateMessage({ messageCode: a.message_code, params: a.params }, a.message, 'zh') }
}

describe("the memory tools' answers by code", () => {
  it('added, already there, proposed, already proposed or in memory, and the refusals: the same English, tool.memory_* beside it', async () => {
    const root = path.join(tmp, 'root')
    const lib = path.join(root, 'alice', 'general', 'experience')
    fs.mkdirSync(lib, { recursive: true })
    fs.writeFileSync(path.join(lib, 'skill_a.md'), '---\nskill_id: "1"\ntitle: A\nusage_conditions: when a\nquality_index: 0.5\nfetch_count: 0\n---\n\nDo a.\n')
    const settings = path.join(tmp, 'settings')
    fs.mkdirSync(settings)

    const direct = await connect(['--root-dir', root, '--user', 'alice', '--direct-edit'], settings)
    try {
      expect(said(await direct.call('record_preference', { preference: 'language: zh' }))).toEqual({
        message: 'Added to memory/preferences.md.',
        code: 'tool.memory_added',
        params: { file: 'memory/preferences.md' },
        zh: '已添加到 memory/preferences.md。'
      })
      expect(said(await direct.call('record_preference', { preference: 'Language:  zh' }))).toEqual({
        message: 'memory/preferences.md already holds it (or a near-duplicate): nothing added.',
        code: 'tool.memory_already_there',
        params: { file: 'memory/preferences.md' },
        zh: 'memory/preferences.md 已包含这一条（或几乎相同的一条）：未添加。'
      })
      expect(said(await direct.call('add_lesson', { lesson: '   ' }))).toEqual({
        message: 'add_lesson needs lesson: a non-empty line of text',
        code: 'tool.memory_needs',
        params: { tool: 'add_lesson', param: 'lesson' },
        zh: 'add_lesson 需要 lesson：一行非空文本'
      })
      expect(said(await direct.call('record_preference', { preference: 'x'.repeat(301) }))).toEqual({
        message: 'the preference is 301 characters; at most 300',
        code: 'tool.memory_too_long',
        params: { param: 'preference', n: 301, max: 300 },
        zh: 'preference 有 301 个字符；最多 300 个'
      })
    } finally {
      await direct.client.close()
    }

    const proposals = await connect(['--root-dir', root, '--user', 'alice'], settings)
    try {
      const lesson = '仅使用以下已注册工具：cat、ls、shell、search、echo；不要编造不存在的工具名（例如曾误用「web_fetch」）。'
      const first = await proposals.call('add_lesson', { lesson })
      expect(first.pending).toBe(true)
      expect(said(first)).toEqual({
        message: 'Proposed for memory/lessons.md: it waits for review in Skillbench, and memory stays as it is until a person accepts it.',
        code: 'tool.memory_proposed',
        params: { file: 'memory/lessons.md' },
        zh: '已为 memory/lessons.md 提出提议：它在 Skillbench 中等待审查，在有人接受之前记忆保持不变。'
      })
      // the proposal's own reason: its English as before, by code beside it (issue 40), worded in Chinese
      const id = first.proposal_id!
      const plan = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: { id: string; reason: string; messageCode?: MessageCode; params?: MessageParams }[] }
      const p = plan.proposals.find((x) => x.id === id)!
      expect(said({ status: 'success', message: p.reason, message_code: p.messageCode, params: p.params })).toEqual({
        message: 'An agent (coded) asked to add this through MCP add_lesson.',
        code: 'memory.reason_agent_client',
        params: { client: 'coded', tool: 'add_lesson' },
        zh: '智能体（coded）通过 MCP add_lesson 请求添加这一条。'
      })
      // the same rule (another invented name): the proposal holding it, nested by code
      expect(said(await proposals.call('add_lesson', { lesson: lesson.replace('web_fetch', 'browse') }))).toEqual({
        message: `Not proposed: proposal ${id} already holds it.`,
        code: 'tool.memory_not_proposed',
        params: { reason: { messageCode: 'tool.memory_in_proposal', params: { id } } },
        zh: `未提出提议：提议 ${id} 已包含这一条。`
      })
      // already in memory (written by the other server)
      expect(said(await proposals.call('record_preference', { preference: 'language: zh' }))).toEqual({
        message: 'Not proposed: memory/preferences.md already holds it.',
        code: 'tool.memory_not_proposed',
        params: { reason: { messageCode: 'tool.memory_in_file', params: { file: 'memory/preferences.md' } } },
        zh: '未提出提议：memory/preferences.md 已包含这一条。'
      })
    } finally {
      await proposals.client.close()
    }

    // a library opened by hand has no memory folder
    const plain = await connect(['--library', lib, '--direct-edit'], settings)
    try {
      expect(said(await plain.call('add_lesson', { lesson: 'x rule' }))).toMatchObject({
        message: 'this server has no memory folder: start it with --memory DIR (the folder holding memory/), or --root-dir DIR --user NAME',
        code: 'tool.memory_no_folder',
        params: {}
      })
    } finally {
      await plain.client.close()
    }
  }, 120_000)
})
