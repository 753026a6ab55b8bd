/**
 * `skillbench usage` (issue 14): the exact `--json` shape, the readable table, the default sources, bad usage;
 * and `curate` reading real usage (a review proposal that `--apply` leaves for a person).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { IDS, writeAgiRoot, writeClaudeSession, writeCodexRollout, writeLedger, writeLibrary } from './fixtures'

let tmp: string
let lib: string
let home: string

function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = {
    stdout: (t) => void out.push(String(t)),
    stderr: (t) => void err.push(t),
    isTTY: false,
    cwd: tmp,
    env: { SKILLBENCH_HOME: home, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache'), ...env },
    signal: new AbortController().signal
  }
  return main(argv, io).then((code) => ({ code, out: out.join(''), err: err.join('') }))
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-usage-cli-')))
  // an AGIAgent data root whose user alice holds the library, as upstream lays it out
  lib = path.join(tmp, 'root', 'alice', 'general', 'experience')
  writeLibrary(lib)
  writeLedger(lib)
  writeAgiRoot(path.join(tmp, 'root'))
  home = path.join(tmp, 'home')
  writeClaudeSession(path.join(home, '.claude', 'projects'))
  writeCodexRollout(path.join(home, '.codex', 'sessions'), lib)
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('skillbench usage', () => {
  it('--json prints exactly {skills: [{skill_id, name, title, uses, completed, failed, interrupted, corrected, last_used_at, tasks: [{source, task, at, outcome}]}], baseline: {tasks, completed, failed, interrupted}}', async () => {
    const r = await run(['usage', '--library', lib, '--root-dir', path.join(tmp, 'root'), '--claude-dir', path.join(home, '.claude', 'projects'), '--codex-dir', path.join(home, '.codex', 'sessions'), '--json'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out) as { skills: Record<string, unknown>[]; baseline: Record<string, unknown> }
    expect(Object.keys(doc)).toEqual(['skills', 'baseline'])
    expect(Object.keys(doc.baseline)).toEqual(['tasks', 'completed', 'failed', 'interrupted'])
    for (const s of doc.skills) {
      expect(Object.keys(s)).toEqual(['skill_id', 'name', 'title', 'uses', 'completed', 'failed', 'interrupted', 'corrected', 'last_used_at', 'tasks'])
      for (const t of s.tasks as Record<string, unknown>[]) expect(Object.keys(t)).toEqual(['source', 'task', 'at', 'outcome'])
    }
    const pdf = doc.skills.find((s) => s.name === 'pdf-report')!
    expect(pdf).toMatchObject({ uses: 3, completed: 1, failed: 0, interrupted: 1, corrected: 1 })
    expect((pdf.tasks as { source: string }[]).map((t) => t.source).sort()).toEqual(['agiagent', 'claude', 'codex'])
    const calc = doc.skills.find((s) => s.skill_id === IDS.calculator)!
    expect(calc.tasks).toContainEqual({ source: 'cli', task: null, at: expect.any(String), outcome: null })
    // Claude 5, 7, 8 and Codex 4 completed, AGIAgent 131500 failed
    expect(doc.baseline).toEqual({ tasks: 5, completed: 4, failed: 1, interrupted: 0 })
  })

  it('without source flags reads the library’s own data root and the agents’ usual session folders', async () => {
    const named = await run(['usage', '--library', lib, '--root-dir', path.join(tmp, 'root'), '--claude-dir', path.join(home, '.claude', 'projects'), '--codex-dir', path.join(home, '.codex', 'sessions'), '--json'])
    const defaults = await run(['usage', '--library', lib, '--json'])
    expect(defaults.code).toBe(0)
    expect(JSON.parse(defaults.out)).toEqual(JSON.parse(named.out))
  })

  it('--since narrows the period; the table says counts, the baseline and "too few uses to tell"', async () => {
    const r = await run(['usage', '--library', lib, '--since', '2026-11-11'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^Library: /)
    expect(r.out).toMatch(/Period: since 2026-11-1[01]/)
    expect(r.out).toMatch(/SKILL\s+USES\s+DONE\s+FAILED\s+INTERRUPTED\s+CORRECTED\s+LAST USED/)
    expect(r.out).toMatch(/pdf-report\s+2\s+0\s+0\s+1\s+1\s+2026-11-\d\d .*too few uses to tell/)
    expect(r.out).toMatch(/never-touched\s+0\s+0\s+0\s+0\s+0\s+-\s+-\s+no use in the logs read/)
    expect(r.out).toMatch(/Baseline \(tasks that used no skill of this library\): \d+ tasks/)
  })

  it('bad usage is exit 2 with one line', async () => {
    expect(await run(['usage', '--json'])).toMatchObject({ code: 2 })
    const r = await run(['usage', '--library', lib, '--since', 'yesterday'])
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/--since takes a date/)
  })

  it('a named folder that cannot be read is said on stderr; the rest is still reported', async () => {
    const r = await run(['usage', '--library', lib, '--claude-dir', path.join(tmp, 'nope'), '--json'])
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/nope/)
    expect(JSON.parse(r.out).skills.find((s: { skill_id: string }) => s.skill_id === IDS.calculator).uses).toBe(1)
  })

  it('the installed command lists it', () => {
    const res = spawnSync(process.execPath, [path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs'), '--help'], { encoding: 'utf8' })
    expect(res.stdout).toMatch(/^\s+usage\s+Which skills agents really used/m)
  })
})

describe('skillbench curate reads real usage', () => {
  it('names what it read; --no-usage has no evidence of use, so no cleanup', async () => {
    // another user's library with the same skills and no ledger: only the agents' logs say they were used
    const bob = path.join(tmp, 'root', 'bob', 'general', 'experience')
    writeLibrary(bob)
    const r = await run(['curate', '--library', bob, '--json'])
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/Reading the agents' logs for real usage/)
    expect(r.err).toMatch(/Read \d+ task\(s\) from 3 source\(s\)/)
    const withUsage = JSON.parse(r.out) as { proposals: { kind: string; members: { title: string }[] }[] }
    const cleaned = (doc: typeof withUsage): string[] => doc.proposals.filter((p) => p.kind === 'cleanup').map((p) => p.members[0]!.title).sort()
    const without = JSON.parse((await run(['curate', '--library', bob, '--json', '--no-usage'])).out) as typeof withUsage
    // skills made in September, fetch_count 0 everywhere: without the logs nothing shows the agents keep it, so nothing
    // is judged unused (issue 36); the logs show query_skill in use, so with them the seed's rule spares what agents touched
    expect(cleaned(without)).toEqual([])
    expect(cleaned(withUsage)).not.toContain('Calculator in Python')
    expect(cleaned(withUsage)).not.toContain('Tell a joke')
    expect(cleaned(withUsage)).toContain('Old unused')
  })
})

describe('curate --apply and a review', () => {
  it('proposes a review for a skill whose tasks fail more often, and --apply leaves it for a person', async () => {
    const dir = path.join(tmp, 'review')
    const library = path.join(dir, 'lib')
    writeLibrary(library)
    const rec = (ts: string, type: string, payload: Record<string, unknown>): string => JSON.stringify({ timestamp: ts, type, payload })
    const lines: string[] = [rec('2026-11-20T10:00:00Z', 'session_meta', { id: 'r', cwd: '/w' })]
    for (let i = 0; i < 16; i++) {
      const uses = i < 6
      const fails = i < 4 || i === 15
      lines.push(rec(`2026-11-20T10:${String(i).padStart(2, '0')}:00Z`, 'event_msg', { type: 'user_message', message: `task ${i}` }))
      if (uses) lines.push(rec(`2026-11-20T10:${String(i).padStart(2, '0')}:01Z`, 'response_item', { type: 'function_call', name: 'exec_command', call_id: `r${i}`, arguments: JSON.stringify({ cmd: 'cat ~/.codex/skills/deploy-check/SKILL.md' }) }))
      if (uses) lines.push(rec(`2026-11-20T10:${String(i).padStart(2, '0')}:02Z`, 'response_item', { type: 'function_call_output', call_id: `r${i}`, output: 'Process exited with code 0' }))
      if (fails) lines.push(rec(`2026-11-20T10:${String(i).padStart(2, '0')}:03Z`, 'event_msg', { type: 'error', message: `deploy ${i} failed` }))
      else lines.push(rec(`2026-11-20T10:${String(i).padStart(2, '0')}:03Z`, 'event_msg', { type: 'task_complete', last_agent_message: 'ok' }))
    }
    const home2 = path.join(dir, 'home')
    fs.mkdirSync(path.join(home2, '.codex', 'sessions'), { recursive: true })
    fs.writeFileSync(path.join(home2, '.codex', 'sessions', 'rollout-2026-11-20T10-00-00-r.jsonl'), lines.join('\n') + '\n')
    const applied = await run(['curate', '--library', library, '--apply', '--json'], { SKILLBENCH_HOME: home2 })
    expect(applied.code).toBe(0)
    const doc = JSON.parse(applied.out) as { proposals: { kind: string; status?: string; members: { title: string }[]; evidence: Record<string, unknown> }[] }
    const review = doc.proposals.find((p) => p.kind === 'review')!
    expect(review.members[0]!.title).toBe('deploy-check')
    expect(review.status).toBe('pending')
    expect(review.evidence).toMatchObject({ tasks: 6, failed: 4, baseline: { tasks: 10, failed: 1 } })
    expect((review.evidence.failing_tasks as { error: string }[])[0]!.error).toMatch(/deploy \d failed/)
    expect(applied.err).not.toMatch(/changes nothing/)
  })
})
