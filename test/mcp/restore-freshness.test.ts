/**
 * A running MCP server did not see a skill restored by another process (`skillbench restore`) until its next full
 * stat check of the library, up to a second later: the store's own writes (edit, delete, rate) are announced in the
 * library's ledger, which the server reads before every query, but a review transaction's (a restore, an accepted
 * merge, an undo) were not. Now a transaction announces its files there too, and the next query sees the change.
 *
 * The server is a real process (node bin/skillbench.mjs mcp over stdio); the delete and the restore are made by this
 * test's process through the same functions `skillbench delete` and `skillbench restore` run. The query after the
 * delete comes more than a second after the first, so the server walks the library then; the restore and the next
 * query follow at once, well inside the second after that walk.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openForCuration } from '../../src/main/curate/service'
import { restoreSkill } from '../../src/main/review/decisions'
import { openLibrary } from '../../src/main/store/library'
import { createSkillTools } from '../../src/main/tools/skill-tools'
import { childEnv } from '../helpers/mcp-env'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.mjs')
const SAMPLE = path.join(ROOT, 'resources', 'sample-data', 'alice', 'general', 'experience')
const WORD = '1785000000'
const QUERY = 'convert word document pdf libreoffice'

let dir: string
let lib: string
let client: Client

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-restore-fresh-')))
  lib = path.join(dir, 'lib')
  fs.cpSync(SAMPLE, lib, { recursive: true })
  const env = childEnv({ SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'), SKILLBENCH_SEARCH_SERVER: 'off' })
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--library', lib, '--ignore-settings'], cwd: dir, stderr: 'pipe', env })
  client = new Client({ name: 'restore-freshness-test', version: '1.0.0' })
  await client.connect(transport)
})

afterAll(async () => {
  await client?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The ids query_skill returns for QUERY now. */
async function found(): Promise<string[]> {
  const r = (await client.callTool({ name: 'query_skill', arguments: { query: QUERY } })) as { structuredContent?: { skills: { skill_id: string }[] } }
  return r.structuredContent!.skills.map((s) => s.skill_id)
}

describe('a running MCP server and a skill restored by another process', () => {
  it('finds it at the very next query', async () => {
    expect(await found()).toEqual([WORD])
    const deleted = await createSkillTools(await openLibrary(lib)).delete_skill(WORD)
    expect(deleted.status).toBe('success')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await found()).toEqual([])
    await restoreSkill(await openForCuration(lib), WORD, 'test')
    expect(fs.existsSync(path.join(lib, 'skill_Convert a Word documen.md'))).toBe(true)
    expect(await found()).toEqual([WORD])
  })
})
