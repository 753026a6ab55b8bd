// Seed 001 (Synapse): agents name skills, so the MCP server's skill:// resources resolve by name as well as by id.
// Through the real CLI over stdio.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { childEnv } from '../helpers/mcp-env'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-seed001-'))
const LIB = path.join(tmp, 'skills')
const REVIEW = '---\nname: code-review\ndescription: Reviews a change for correctness and style\n---\n\n# Code review\n\nRead the diff first.\n'

function writeSkill(name: string, text: string): void {
  fs.mkdirSync(path.join(LIB, name), { recursive: true })
  fs.writeFileSync(path.join(LIB, name, 'SKILL.md'), text)
}

describe('skill://<name> over MCP', () => {
  let client: Client
  beforeAll(async () => {
    writeSkill('code-review', REVIEW)
    writeSkill('analyzing-logs', '---\nname: analyzing-logs\ndescription: Finds errors in log files\n---\n\n# Analyzing logs\n')
    const settings = path.join(tmp, 'settings')
    fs.mkdirSync(settings)
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--library', LIB], cwd: PROJECT, stderr: 'pipe', env: childEnv({ SKILLBENCH_CONFIG_DIR: settings }) })
    client = new Client({ name: 'seed-001', version: '1.0.0' })
    await client.connect(transport)
  }, 60_000)
  afterAll(async () => {
    await client?.close()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  it('reads skill://code-review (and by id, the same text); an unknown name says what to use', async () => {
    const byName = await client.readResource({ uri: 'skill://code-review' })
    expect(byName.contents[0]).toMatchObject({ uri: 'skill://code-review', mimeType: 'text/markdown', text: REVIEW })
    const { resources } = await client.listResources()
    const listed = resources.find((r) => r.name === 'code-review')!
    const byId = await client.readResource({ uri: listed.uri })
    expect(byId.contents[0]).toMatchObject({ text: REVIEW })
    expect((await client.readResource({ uri: 'skill://Code-Review' })).contents[0]).toMatchObject({ text: REVIEW })
    await expect(client.readResource({ uri: 'skill://no-such-skill' })).rejects.toThrow(/no skill named "no-such-skill"/)
    await expect(client.readResource({ uri: 'skill://..%2F..%2Fetc' })).rejects.toThrow(/no skill named/)
    // Reading never modifies a file.
    expect(fs.readFileSync(path.join(LIB, 'code-review', 'SKILL.md'), 'utf8')).toBe(REVIEW)
  })
})
