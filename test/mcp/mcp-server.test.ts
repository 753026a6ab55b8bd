/**
 * The MCP server in-process (SDK client over the SDK's in-memory transport): modes and edge cases
 * that would be slow to cover by spawning the CLI each time.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterEach, describe, expect, it } from 'vitest'
import type { Proposal } from '../../src/shared/types'
import { combinedAvailability, readAppSettings, skillToolsAvailability } from '../../src/main/mcp/availability'
import { listPendingProposals } from '../../src/main/review/pending-proposals'
import { createSkillMcpServer, type SkillMcpServerOptions } from '../../src/main/mcp/server'
import { skillToolsPrompt } from '../../src/main/mcp/prompt-snippet'
import { openLibrary } from '../../src/main/store/library'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { hashTree, makeLibrary, skillFile } from './fixtures'

const tmpDirs: string[] = []
const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close()
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

async function setup(opts: Partial<SkillMcpServerOptions> = {}) {
  const lib = await makeLibrary()
  tmpDirs.push(lib.dir)
  const store = await openLibrary(lib.dir)
  const server = createSkillMcpServer({ store, now: () => new Date('2026-02-01T10:00:00Z'), ...opts })
  const [a, b] = InMemoryTransport.createLinkedPair()
  await server.connect(a)
  const client = new Client({ name: 'inproc', version: '1' })
  await client.connect(b)
  clients.push(client)
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown> }
  return { lib, client, call, store }
}

describe('proposal mode', () => {
  it('a delete proposal lists the move and leaves the skill active', async () => {
    const { lib, call } = await setup()
    const text = fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')
    const r = await call('delete_skill', { skill_id: lib.ids.calc })
    expect(r.structuredContent).toMatchObject({ status: 'success', pending: true })
    expect(fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')).toBe(text)
    expect(fs.existsSync(path.join(lib.dir, 'legacy'))).toBe(false)
    const { proposals, errors } = await listPendingProposals(lib.dir)
    expect(errors).toEqual([])
    const p = proposals[0] as Proposal
    expect(p.id).toMatch(new RegExp(`^delete-${lib.ids.calc}-20260201T100000Z-[0-9a-f]{6}$`))
    expect(p).toMatchObject({ kind: 'delete', status: 'pending', author: 'mcp:inproc', score: 1 })
    const rel = path.basename(skillFile(lib.dir, lib.ids.calc))
    expect(p.changes).toEqual([
      { path: rel, before: text, after: null },
      { path: `legacy/${rel}`, before: null, after: text }
    ])
    expect(p.evidence).toMatchObject({ tool: 'delete_skill', move: { from: rel, to: `legacy/${rel}` } })
    expect(typeof p.evidence.base_hash).toBe('string')
  })
  it('lines_replace proposal: the after text is exactly what the tool would write; a no-op edit makes no proposal', async () => {
    const { lib, call } = await setup()
    const r = await call('edit_skill', { skill_id: lib.ids.calc, edit_mode: 'lines_replace', old_code: 'Test with pytest.', code_edit: 'Test with pytest -q.' })
    expect(r.structuredContent).toMatchObject({ pending: true })
    const [p] = (await listPendingProposals(lib.dir)).proposals
    const change = p!.changes[0]!
    expect(change.after).toBe(change.before!.replace('Test with pytest.', 'Test with pytest -q.').replace(/^updated_at: .*$/m, "updated_at: '2026-02-01T10:00:00.000000'"))
    expect(p!.evidence.args).toEqual({ skill_id: lib.ids.calc, edit_mode: 'lines_replace', old_code: 'Test with pytest.', code_edit_chars: 20 })
    // the tool's own refusals still apply in proposal mode
    const missing = await call('edit_skill', { skill_id: lib.ids.calc, edit_mode: 'lines_replace', old_code: 'not in the body', code_edit: 'x' })
    expect(missing.isError).toBe(true)
    const before = hashTree(lib.dir)
    const body = (await openLibrary(lib.dir)).get(lib.ids.git)
    const same = await call('edit_skill', { skill_id: lib.ids.git, edit_mode: 'full_replace', code_edit: (await body).body })
    expect(same.structuredContent).toMatchObject({ status: 'success', pending: false })
    expect(hashTree(lib.dir)).toEqual(before)
  })
})

describe('direct mode', () => {
  it('--direct-edit / --direct-delete change the library at once, as the CLI does', async () => {
    const { lib, call } = await setup({ proposalOnly: { edit: false, delete: false } })
    const e = await call('edit_skill', { skill_id: lib.ids.git, edit_mode: 'append', code_edit: 'Use git rerere.\n' })
    expect(e.isError).toBe(false)
    expect(fs.readFileSync(skillFile(lib.dir, lib.ids.git), 'utf8')).toContain('continue the rebase.\nUse git rerere.\n')
    const d = await call('delete_skill', { skill_id: lib.ids.joke })
    expect(d.structuredContent).toMatchObject({ status: 'success' })
    expect(fs.readdirSync(path.join(lib.dir, 'legacy'))).toHaveLength(1)
    expect(fs.existsSync(path.join(lib.dir, '.skillbench', 'pending'))).toBe(false)
  })
  it('copy_skill_files copies from the configured workspace only', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-ws-'))
    tmpDirs.push(ws)
    fs.writeFileSync(path.join(ws, 'calculator.py'), 'def add(a, b):\n    return a + b\n')
    const { lib, call } = await setup({ workspaceRoot: ws })
    const ok = await call('copy_skill_files', { skill_id: lib.ids.calc, file_paths: ['calculator.py'] })
    expect(ok.isError).toBe(false)
    const escape = await call('copy_skill_files', { skill_id: lib.ids.calc, file_paths: ['../../etc/passwd'] })
    expect(JSON.stringify(escape.structuredContent)).not.toContain('root:')
    expect(hashTree(lib.dir)).not.toHaveProperty(['codes', 'passwd'].join(path.sep))
  })
})

describe('resources and prompt', () => {
  it('lists only active skills and refuses unknown ids', async () => {
    const { lib, client, call } = await setup({ proposalOnly: { edit: true, delete: false } })
    await call('delete_skill', { skill_id: lib.ids.joke })
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri).sort()).toEqual([`skill://${lib.ids.calc}`, `skill://${lib.ids.git}`].sort())
    expect(resources.find((r) => r.uri === `skill://${lib.ids.calc}`)).toMatchObject({ name: 'Python calculator with unit tests', mimeType: 'text/markdown' })
    await expect(client.readResource({ uri: `skill://${lib.ids.joke}` })).rejects.toThrow()
    await expect(client.readResource({ uri: 'skill://123456789' })).rejects.toThrow(/no active skill with id 123456789/)
  })
  it('offers the skill-tools guide prompt in both languages', async () => {
    const { client } = await setup()
    const zh = await client.getPrompt({ name: 'skill-tools-guide', arguments: { lang: 'zh' } })
    expect((zh.messages[0]!.content as { text: string }).text).toBe(skillToolsPrompt('zh'))
    const en = await client.getPrompt({ name: 'skill-tools-guide', arguments: {} })
    expect((en.messages[0]!.content as { text: string }).text).toContain('query_skill')
    expect(client.getInstructions()).toBe(skillToolsPrompt('en'))
  })
  it('the snippets carry the four rules in both languages', () => {
    for (const lang of ['en', 'zh'] as const) {
      const s = skillToolsPrompt(lang)
      for (const word of ['query_skill', 'skill_id', 'plan.md', 'rate_skill']) expect(s, `${lang} ${word}`).toContain(word)
    }
  })
})

describe('availability', () => {
  it('long-term memory off: tools refuse, resources are hidden', async () => {
    const { lib, client, call } = await setup({ availability: { available: false, source: 'settings' } })
    const before = hashTree(lib.dir)
    const r = await call('rate_skill', { skill_id: lib.ids.calc, rating: 1 })
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toEqual({ status: 'error', message: 'Skill tools are only available when long-term memory is enabled', message_code: 'tool.disabled', params: {} })
    expect((await client.listResources()).resources).toEqual([])
    await expect(client.readResource({ uri: `skill://${lib.ids.calc}` })).rejects.toThrow(/long-term memory/)
    expect(hashTree(lib.dir)).toEqual(before)
  })
  it('reads enable_long_term_memory from the data root, config/config.txt, an explicit file, or settings', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-avail-'))
    tmpDirs.push(root)
    expect(await skillToolsAvailability({ rootDir: root })).toEqual({ available: true, source: 'default' })
    fs.mkdirSync(path.join(root, 'config'))
    fs.writeFileSync(path.join(root, 'config', 'config.txt'), 'enable_long_term_memory=True\n')
    expect(await skillToolsAvailability({ rootDir: root })).toEqual({ available: true, source: path.join(root, 'config', 'config.txt') })
    fs.writeFileSync(path.join(root, 'config.txt'), 'model=x\nenable_long_term_memory = false # off for now\n')
    expect(await skillToolsAvailability({ rootDir: root })).toEqual({ available: false, source: path.join(root, 'config.txt') })
    expect(await skillToolsAvailability({ rootDir: root, enableLongTermMemory: true })).toEqual({ available: true, source: 'settings' })
    await expect(skillToolsAvailability({ configFile: path.join(root, 'missing.txt') })).rejects.toThrow(/cannot read/)
  })
  it('the workbench settings can switch the tools off, and are only read (a damaged file stays as it is)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-settings-'))
    tmpDirs.push(dir)
    const env = { SKILLBENCH_CONFIG_DIR: dir }
    expect(await readAppSettings(env)).toBeUndefined()
    const file = path.join(dir, 'settings.json')
    fs.writeFileSync(file, '{ not json')
    expect(await readAppSettings(env)).toBeUndefined()
    expect(fs.readFileSync(file, 'utf8')).toBe('{ not json')
    fs.writeFileSync(file, JSON.stringify({ version: 1, settings: { enableLongTermMemory: false, proposalOnlyTools: { edit: false, delete: true } }, openedLibraries: [] }))
    const app = await readAppSettings(env)
    expect(app?.settings.enableLongTermMemory).toBe(false)
    expect(app?.settings.proposalOnlyTools).toEqual({ edit: false, delete: true })
    expect(await combinedAvailability({ settings: app })).toEqual({ available: false, source: file })
    expect(await combinedAvailability({ settings: { file, settings: { enableLongTermMemory: true } } })).toEqual({ available: true, source: 'default' })
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-avail-'))
    tmpDirs.push(root)
    fs.writeFileSync(path.join(root, 'config.txt'), 'enable_long_term_memory=False\n')
    expect(await combinedAvailability({ rootDir: root, settings: { file, settings: { enableLongTermMemory: true } } })).toEqual({ available: false, source: path.join(root, 'config.txt') })
  })
  it.skipIf(!HAS_REAL_DATA)('upstream\'s real config.txt (enable_long_term_memory=False) disables the tools', async () => {
    const file = realPath('agiagent', 'agi-hub_AGIAgent', 'config_and_prompts', 'config.txt')
    expect(await skillToolsAvailability({ configFile: file })).toEqual({ available: false, source: file })
  })
})

describe('reviewing MCP proposals (accept / reject through curation transactions)', () => {
  it('accepting an edit writes exactly the proposed text, journals it, and curation can undo it', async () => {
    const { acceptPendingProposal, readPendingProposal } = await import('../../src/main/review/pending-proposals')
    const { undoApplied } = await import('../../src/main/review/decisions')
    const { lib, call } = await setup()
    const file = skillFile(lib.dir, lib.ids.git)
    const original = fs.readFileSync(file, 'utf8')
    const r = await call('edit_skill', { skill_id: lib.ids.git, edit_mode: 'append', code_edit: 'Prefer rebase for local branches.\n' })
    const id = (r.structuredContent as { proposal_id: string }).proposal_id
    const record = await acceptPendingProposal(lib.dir, id, 'reviewer')
    expect(record).toMatchObject({ action: 'apply', proposal_id: id, kind: 'edit', by: 'reviewer', author: 'mcp:inproc' })
    const proposal = await readPendingProposal(lib.dir, id)
    expect(proposal.status).toBe('applied')
    expect(fs.readFileSync(file, 'utf8')).toBe(proposal.changes[0]!.after)
    await expect(acceptPendingProposal(lib.dir, id, 'reviewer')).rejects.toThrow(/applied/)
    await undoApplied(lib.dir, id, 'reviewer')
    expect(fs.readFileSync(file, 'utf8')).toBe(original)
  })
  it('a proposal whose skill changed since is refused and nothing is written', async () => {
    const { acceptPendingProposal } = await import('../../src/main/review/pending-proposals')
    const { lib, call } = await setup()
    const r = await call('edit_skill', { skill_id: lib.ids.calc, edit_mode: 'full_replace', code_edit: 'new body\n' })
    const id = (r.structuredContent as { proposal_id: string }).proposal_id
    await call('rate_skill', { skill_id: lib.ids.calc, rating: 0 }) // the file changes meanwhile
    const skillBefore = fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')
    await expect(acceptPendingProposal(lib.dir, id, 'reviewer')).rejects.toThrow()
    expect(fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')).toBe(skillBefore)
  })
  it('accepting a delete moves the skill to legacy/ (with a suffix on a name clash); reject leaves it', async () => {
    const { acceptPendingProposal, rejectPendingProposal, readPendingProposal } = await import('../../src/main/review/pending-proposals')
    const { lib, call } = await setup()
    const name = path.basename(skillFile(lib.dir, lib.ids.joke))
    fs.mkdirSync(path.join(lib.dir, 'legacy'))
    fs.copyFileSync(path.join(lib.dir, name), path.join(lib.dir, 'legacy', name)) // an older retired copy
    const d = await call('delete_skill', { skill_id: lib.ids.joke })
    const id = (d.structuredContent as { proposal_id: string }).proposal_id
    const p = await readPendingProposal(lib.dir, id)
    const target = p.changes.find((c) => c.before === null)!.path
    expect(target).toMatch(/^legacy\/skill_中文笑话创作_\d+\.md$/)
    await acceptPendingProposal(lib.dir, id, 'reviewer')
    expect(fs.existsSync(path.join(lib.dir, name))).toBe(false)
    expect(fs.existsSync(path.join(lib.dir, target))).toBe(true)
    expect(fs.existsSync(path.join(lib.dir, 'legacy', name))).toBe(true)

    const e = await call('delete_skill', { skill_id: lib.ids.calc })
    const eid = (e.structuredContent as { proposal_id: string }).proposal_id
    const before = fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')
    expect((await rejectPendingProposal(lib.dir, eid)).status).toBe('rejected')
    expect(fs.readFileSync(skillFile(lib.dir, lib.ids.calc), 'utf8')).toBe(before)
    await expect(acceptPendingProposal(lib.dir, eid, 'reviewer')).rejects.toThrow(/rejected/)
    await expect(acceptPendingProposal(lib.dir, '../../x', 'reviewer')).rejects.toThrow(/not a pending-proposal id/)
  })
})

describe('review queue limit', () => {
  it('a runaway agent cannot queue more than MAX_PENDING_PROPOSALS', async () => {
    const { MAX_PENDING_PROPOSALS, proposalId } = await import('../../src/main/review/pending-proposals')
    const { lib, call } = await setup()
    const dir = path.join(lib.dir, '.skillbench', 'pending')
    fs.mkdirSync(dir, { recursive: true })
    // One second apart: ids made in the same second differ only by 3 random bytes, and 500 of them collide (one
    // file fewer, under the cap) about once in 130 runs.
    const start = Date.parse('2026-11-01T00:00:00Z')
    for (let i = 0; i < MAX_PENDING_PROPOSALS; i++) {
      const id = proposalId('edit', lib.ids.calc, new Date(start + i * 1000))
      fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ id, kind: 'edit', status: 'pending', changes: [], members: [], score: 1, reason: '', evidence: {} }))
    }
    expect(fs.readdirSync(dir).length).toBe(MAX_PENDING_PROPOSALS)
    const before = hashTree(lib.dir)
    const r = await call('edit_skill', { skill_id: lib.ids.calc, edit_mode: 'append', code_edit: 'more\n' })
    expect(r.isError).toBe(true)
    expect((r.structuredContent as { message: string }).message).toMatch(/wait for review/)
    expect(hashTree(lib.dir)).toEqual(before)
  })
})
