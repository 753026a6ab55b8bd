/**
 * An agent's edit_skill / delete_skill in proposal mode (the MCP server in-process over the SDK's in-memory
 * transport, a real library on disk): the pending proposal's reason by code beside its unchanged English, in the
 * file under .skillbench/pending; the English re-renders from it; the Curate screen words the request by code.
 */
import fs from 'node:fs'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import type { Proposal } from '../../src/shared/types'
import { createSkillMcpServer } from '../../src/main/mcp/server'
import { listPendingProposals } from '../../src/main/review/pending-proposals'
import { openLibrary } from '../../src/main/store/library'
import { proposalReason } from '../../src/renderer/features/curate/proposal-text'
import { formatMessage, type Translate } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { makeLibrary } from './fixtures'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const tr = (lang: 'en' | 'zh'): Translate => (key, vars) => formatMessage(MESSAGES[lang][key], vars)
const ref = (p: Proposal): MessageRef => ({ messageCode: p.messageCode!, params: p.params! })

describe("an agent's pending proposal: its reason by code", () => {
  it('edit and retire: the same English as before, review.agent_edit / review.agent_retire beside it on disk, in Chinese by code', async () => {
    const lib = await makeLibrary()
    dirs.push(lib.dir)
    const server = createSkillMcpServer({ store: await openLibrary(lib.dir), now: () => new Date('2026-02-01T10:00:00Z') })
    const [a, b] = InMemoryTransport.createLinkedPair()
    await server.connect(a)
    const client = new Client({ name: 'inproc', version: '1' })
    await client.connect(b)
    try {
      const edit = (await client.callTool({ name: 'edit_skill', arguments: { skill_id: lib.ids.git, edit_mode: 'append', code_edit: 'Prefer rebase for local branches.\n' } })) as { structuredContent?: Record<string, unknown> }
      expect(edit.structuredContent).toMatchObject({ status: 'success', pending: true })
      const retire = (await client.callTool({ name: 'delete_skill', arguments: { skill_id: lib.ids.joke } })) as { structuredContent?: Record<string, unknown> }
      expect(retire.structuredContent).toMatchObject({ status: 'success', pending: true })
    } finally {
      await client.close()
    }
    // read back from the files under .skillbench/pending
    const { proposals, errors } = await listPendingProposals(lib.dir)
    expect(errors).toEqual([])
    const e = proposals.find((p) => p.kind === 'edit')!
    const d = proposals.find((p) => p.kind === 'delete')!

    expect(e.reason).toBe('An agent asked to edit "Resolve git merge conflicts" (append) through MCP.')
    expect(ref(e)).toEqual({ messageCode: 'review.agent_edit', params: { title: 'Resolve git merge conflicts', mode: 'append' } })
    expect(d.reason).toBe('An agent asked to retire "中文笑话创作" to the legacy folder through MCP.')
    expect(ref(d)).toEqual({ messageCode: 'review.agent_retire', params: { title: '中文笑话创作' } })
    for (const p of [e, d]) expect(englishText(ref(p))).toBe(p.reason)

    expect(translateMessage(ref(e), e.reason, 'zh')).toBe('智能体通过 MCP 请求编辑“Resolve git merge conflicts”（append）。')
    expect(translateMessage(ref(d), d.reason, 'zh')).toBe('智能体通过 MCP 请求将“中文笑话创作”移入归档文件夹。')
    // the Curate card: its own line, and the request quoted by code in the UI language
    expect(proposalReason(tr('zh'), e, 'zh')).toEqual({ text: '智能体请求修改“Resolve git merge conflicts”。', quote: '智能体通过 MCP 请求编辑“Resolve git merge conflicts”（append）。' })
    expect(proposalReason(tr('zh'), d, 'zh').quote).toBe('智能体通过 MCP 请求将“中文笑话创作”移入归档文件夹。')
    expect(proposalReason(tr('en'), d, 'en').quote).toBe(d.reason)
    // a proposal an older build wrote (words only) is quoted as written
    const { messageCode: _c, params: _p, ...older } = e
    expect(proposalReason(tr('zh'), older, 'zh').quote).toBe(e.reason)
  })
})
