/**
 * fetch_count and last_used_at are in the skill files, where AGIAgent's own cleanup reads them: by the time a CLI
 * `query` returns, and within seconds of an MCP server's query (issue 37, seed 000). Real processes at once on the
 * same skills: every use is counted exactly once (the ledger's no-lost-update guarantee kept), and the files parse.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LEDGER_REL, parseLedgerChunk, pendingUsesOf } from '../../src/main/store/ledger'
import { parseSkillText } from '../../src/main/store/skill-file'
import { makeLibrary } from '../curate/fixtures'
import { AGENT_ENV, cliCall, mcpCall, startMcpAgent } from './agents'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const CALC = '1768700001'
const CALC2 = '1768700002'
const GIT = '1768700003'
const SKILLS = [
  { id: CALC, title: 'Python calculator with tests', body: '# Steps\n\n1. Write calculator.py with add and divide.\n2. Raise ValueError on division by zero.\n' },
  { id: CALC2, title: 'Python calculator with unit tests', body: '# Steps\n\n1. Write calculator.py.\n2. Test it with pytest.\n' },
  { id: GIT, title: 'Resolve git merge conflicts', body: 'Run git status, fix the conflict markers, git add, then continue the rebase.\n' }
]
const QUERIES = ['python calculator divide by zero', 'pytest unit tests for a calculator', 'git rebase conflict markers']

function library(): string {
  const dir = fs.realpathSync(makeLibrary(SKILLS))
  dirs.push(dir)
  return dir
}

/** The counters as the file itself says (what AGIAgent reads), never the store's view with the ledger added. */
function fileCounters(dir: string, id: string): { fetch_count: number; last_used_at: unknown } {
  const parsed = parseSkillText(fs.readFileSync(path.join(dir, `skill_${id}.md`), 'utf8'))
  if (!parsed.ok) throw new Error(`skill_${id}.md does not parse: ${parsed.reason}`)
  return { fetch_count: Number(parsed.file.data.fetch_count), last_used_at: parsed.file.data.last_used_at }
}

/** Uses recorded in the ledger and not yet in the files. */
function unfolded(dir: string): number {
  const records = parseLedgerChunk(fs.readFileSync(path.join(dir, LEDGER_REL))).records
  return [...pendingUsesOf(records).values()].reduce((n, u) => n + u.count, 0)
}

function foldRecords(dir: string): number {
  return parseLedgerChunk(fs.readFileSync(path.join(dir, LEDGER_REL))).records.filter((r) => r.t === 'fold').length
}

async function waitFor<T>(what: () => T, ok: (v: T) => boolean, ms: number): Promise<{ value: T; after: number }> {
  const start = Date.now()
  for (;;) {
    const value = what()
    if (ok(value) || Date.now() - start > ms) return { value, after: Date.now() - start }
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('usage counters in the skill files', { timeout: 240_000 }, () => {
  it('4 CLI processes × 6 queries at once: each query returns with its uses in the files, and the totals are exact', async () => {
    const dir = library()
    // completed[id]: uses of queries that have returned, so far (any process)
    const completed = new Map<string, number>()
    const lateFiles: string[] = []
    const failures: string[] = []
    await Promise.all(
      Array.from({ length: 4 }, async (_, a) => {
        for (let k = 0; k < 6; k++) {
          const r = await cliCall(dir, { kind: 'query', text: QUERIES[(a + k) % QUERIES.length]! })
          if (!r.answer || r.answer.status !== 'success') {
            failures.push(r.error ?? String(r.answer?.message))
            continue
          }
          for (const s of r.answer.skills as { skill_id: string }[]) completed.set(s.skill_id, (completed.get(s.skill_id) ?? 0) + 1)
          // Every use of a query that has returned is in the file now (others' included: a fold carries them all).
          for (const [id, n] of completed) {
            const inFile = fileCounters(dir, id)
            if (inFile.fetch_count < n) lateFiles.push(`${id}: file ${inFile.fetch_count} < ${n} returned uses`)
            if (typeof inFile.last_used_at !== 'string') lateFiles.push(`${id}: last_used_at ${String(inFile.last_used_at)}`)
          }
        }
      })
    )
    expect(failures).toEqual([])
    expect(lateFiles).toEqual([])
    const total = [...completed.values()].reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThanOrEqual(24) // --top 2: at least one skill per query
    for (const s of SKILLS) expect(fileCounters(dir, s.id).fetch_count).toBe(completed.get(s.id) ?? 0)
    expect(unfolded(dir)).toBe(0)
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('.skillbench-tmp-'))).toEqual([])
  })

  it('an MCP server: its queries reach the files within seconds, a burst in one fold, the rest when it closes', async () => {
    const dir = library()
    const agent = await startMcpAgent(dir)
    let closed = false
    try {
      const foldsBefore = fs.existsSync(path.join(dir, LEDGER_REL)) ? foldRecords(dir) : 0
      const returned = new Map<string, number>()
      for (let k = 0; k < 5; k++) {
        const r = await mcpCall(agent.client, { kind: 'query', text: QUERIES[0]! })
        expect(r.answer?.status).toBe('success')
        for (const s of r.answer!.skills as { skill_id: string }[]) returned.set(s.skill_id, (returned.get(s.skill_id) ?? 0) + 1)
      }
      expect(returned.get(CALC)).toBe(5)
      // Within seconds, with no other process and no further query to push it.
      const inFiles = (): Record<string, number> => Object.fromEntries([...returned.keys()].map((id) => [id, fileCounters(dir, id).fetch_count]))
      const seen = await waitFor(inFiles, (v) => [...returned].every(([id, n]) => v[id] === n), 10_000)
      expect(seen.value).toEqual(Object.fromEntries(returned))
      expect(seen.after).toBeLessThan(5_000)
      expect(typeof fileCounters(dir, CALC).last_used_at).toBe('string')
      await waitFor(() => unfolded(dir), (n) => n === 0, 5_000) // the fold's commit record follows its files
      expect(unfolded(dir)).toBe(0)
      // The burst of five queries cost one or two folds, not five.
      expect(foldRecords(dir) - foldsBefore).toBeLessThanOrEqual(2)

      // A query just before the client goes: folded on the way out, not left for later.
      const last = await mcpCall(agent.client, { kind: 'query', text: QUERIES[2]! })
      expect(last.answer?.status).toBe('success')
      await agent.close()
      closed = true
      const git = await waitFor(() => fileCounters(dir, GIT).fetch_count, (n) => n >= 1, 10_000)
      expect(git.value).toBe(1)
      expect(unfolded(dir)).toBe(0)
    } finally {
      if (!closed) await agent.close()
    }
  })

  it('an MCP server killed before its fold loses no use: the next CLI query carries it into the files', async () => {
    const dir = library()
    AGENT_ENV.SKILLBENCH_FOLD_SOON_MS = '60000' // the kill lands before the fold however slow the machine is
    const agent = await startMcpAgent(dir).finally(() => delete AGENT_ENV.SKILLBENCH_FOLD_SOON_MS)
    const r = await mcpCall(agent.client, { kind: 'query', text: QUERIES[2]! })
    expect(r.answer?.status).toBe('success')
    process.kill(agent.pid!, 'SIGKILL')
    await agent.close().catch(() => undefined)
    expect(unfolded(dir)).toBeGreaterThan(0)
    expect(fileCounters(dir, GIT).fetch_count).toBe(0)
    const cli = await cliCall(dir, { kind: 'query', text: QUERIES[0]! })
    expect(cli.answer?.status).toBe('success')
    expect(fileCounters(dir, GIT).fetch_count).toBe(1)
    expect(unfolded(dir)).toBe(0)
  })
})
