/**
 * A query that shares no word with any skill (`zebrafish telemetry`) returned an unrelated skill at similarity 0.000
 * as "Found 1 relevant skill(s)" and counted it as a use (its fetch_count, and a `use` line in usage.jsonl) — the
 * evidence curate's cleanup reads. Now it answers that no skill matches, with the same shape as any query answer
 * (`skills_count: 0, skills: []`, code tool.found_no_match), and nothing is counted. Real processes: the CLI
 * (node bin/skillbench.cjs) and the MCP server over stdio, on a copy of the sample library.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { childEnv } from '../helpers/mcp-env'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const SAMPLE = path.join(ROOT, 'resources', 'sample-data', 'alice', 'general', 'experience')

let dir: string
let lib: string
let env: Record<string, string>

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-nomatch-')))
  lib = path.join(dir, 'lib')
  fs.cpSync(SAMPLE, lib, { recursive: true })
  env = childEnv({ SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'), SKILLBENCH_SEARCH_SERVER: 'off', SKILLBENCH_LANG: '' })
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, env })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The skill files' bytes (fetch_count and last_used_at live in them). */
function skillFiles(): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(lib).filter((n) => n.endsWith('.md')).map((n) => [n, fs.readFileSync(path.join(lib, n), 'utf8')]))
}

/** The `use` records of the library's ledger. */
function uses(): unknown[] {
  const ledger = path.join(lib, '.skillbench', 'usage.jsonl')
  if (!fs.existsSync(ledger)) return []
  return fs.readFileSync(ledger, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: string }).filter((r) => r.t === 'use')
}

const NO_MATCH = 'Found 0 relevant skills: no skill in the library matches the query'

describe('a query that matches no skill', () => {
  it('CLI: says no skill matches (text and --json), counts nothing; a query that matches is still counted', () => {
    const before = skillFiles()
    const plain = cli(['query', 'zebrafish telemetry', '--library', lib])
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toBe(`${NO_MATCH}\n`)
    const json = cli(['query', 'kubernetes helm chart', '--library', lib, '--json'])
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ status: 'success', message: NO_MATCH, skills_count: 0, skills: [], message_code: 'tool.found_no_match', params: {} })
    expect(skillFiles()).toEqual(before)
    expect(uses()).toEqual([])
    // the control: a query that matches returns only skills above 0, and counts them
    const hit = cli(['query', 'convert word document to pdf', '--library', lib, '--json'])
    const answer = JSON.parse(hit.stdout) as { skills: { skill_id: string; similarity_score: number }[] }
    expect(answer.skills.map((s) => s.skill_id)).toEqual(['1785000000'])
    expect(answer.skills[0]!.similarity_score).toBeGreaterThan(0)
    expect(uses()).toMatchObject([{ t: 'use', ids: ['1785000000'] }])
  })

  it('MCP query_skill: the same answer (not an error, no skills), nothing counted', async () => {
    const before = skillFiles()
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--library', lib, '--ignore-settings'], cwd: dir, stderr: 'pipe', env })
    const client = new Client({ name: 'no-match-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const r = (await client.callTool({ name: 'query_skill', arguments: { query: 'zebrafish telemetry' } })) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] }
      expect(r.isError).toBe(false)
      expect(r.structuredContent).toEqual({ status: 'success', message: NO_MATCH, skills_count: 0, skills: [], message_code: 'tool.found_no_match', params: {} })
      expect(JSON.parse(r.content[0]!.text!)).toEqual(r.structuredContent)
    } finally {
      await client.close()
    }
    expect(skillFiles()).toEqual(before)
    expect(uses()).toEqual([])
  })
})
