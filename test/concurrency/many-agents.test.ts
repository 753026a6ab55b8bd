/**
 * One library, many agents at once, as in real use: CLI calls and MCP servers, each its own process, querying
 * (with touch), rating and appending edits to the same skills — also with processes SIGKILLed at random moments,
 * and with `accept` of a merge racing edits of its members. Whatever an agent was told succeeded must be in the
 * library afterwards; every failure must be a clear error; nothing half-done or temporary may remain.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openForCuration, curateLibrary } from '../../src/main/curate/service'
import { readJournal } from '../../src/main/review/journal'
import { openLibrary } from '../../src/main/store/library'
import type { Skill } from '../../src/shared/types'
import { makeLibrary, skillFileText } from '../curate/fixtures'
import { listFiles } from '../store/helpers'
import { bundleChild } from '../helpers/bundle-child'
import { AGENT_ENV, CLEAR_FAILURE, cliCall, emptyLog, mcpCall, ratingsChain, runCliAgent, runMcpAgent, startMcpAgent, type AgentLog, type Op } from './agents'

const OPS = 30
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const CALC = '1768600001'
const CALC2 = '1768600002'
const GIT = '1768600003'
const JOKE = '1768600004'
const BASE_BODY = '# Steps\n\n1. Write calculator.py with add, subtract, multiply and divide.\n2. Raise ValueError on division by zero.\n3. Test with pytest: python -m pytest.\n'
const BASE_SKILLS = [
  { id: CALC, title: 'Python calculator with tests', body: BASE_BODY },
  { id: CALC2, title: 'Python calculator with unit tests', body: BASE_BODY + '4. Keep the tests next to the module.\n' },
  { id: GIT, title: 'Resolve git merge conflicts', body: 'Run git status, fix the conflict markers, git add, then continue the rebase.\n' },
  { id: JOKE, title: '中文笑话创作', body: '先确认主题，笑话要简短，结尾有反转。\n', usage: '当用户要求写中文笑话时使用' }
]
const QUERIES = ['python calculator divide by zero', 'git rebase conflict markers', '写一个中文笑话', 'pytest unit tests for a calculator']

function agentLibrary(): string {
  const dir = makeLibrary(BASE_SKILLS)
  dirs.push(dir)
  return fs.realpathSync(dir)
}

/** Agent `a`'s operations: queries, ratings of GIT and appends to JOKE, interleaved. */
function opsFor(a: number, n = OPS): Op[] {
  return Array.from({ length: n }, (_, k): Op => {
    if (k % 3 === 0) return { kind: 'query', text: QUERIES[(a + k) % QUERIES.length]! }
    if (k % 3 === 1) return { kind: 'rate', id: GIT, rating: (a + k) % 2 }
    return { kind: 'append', id: JOKE, text: `\n<!-- agent ${a} op ${k} -->\n` }
  })
}

function countUses(logs: AgentLog[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const l of logs) for (const ids of l.queried) for (const id of ids) out.set(id, (out.get(id) ?? 0) + 1)
  return out
}

function fetchCounts(skills: Skill[]): Map<string, number> {
  return new Map(skills.filter((s) => !s.legacy).map((s) => [s.skill_id, s.fetch_count]))
}

function tempFilesIn(dir: string): string[] {
  return listFiles(dir).filter((f) => path.basename(f).startsWith('.skillbench-tmp-'))
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1
}

describe('many agents on one library at once', { timeout: 300_000 }, () => {
  it('3 CLI loops and 3 MCP servers, 30 operations each: every reported use, rating and append is in the library', async () => {
    const dir = agentLibrary()
    const logs = Array.from({ length: 6 }, emptyLog)
    await Promise.all(logs.map((log, a) => (a < 3 ? runCliAgent(dir, opsFor(a), log) : runMcpAgent(dir, opsFor(a), log))))

    const failures = logs.flatMap((l) => l.failures)
    for (const f of failures) expect(f).toMatch(CLEAR_FAILURE)
    const successes = logs.reduce((n, l) => n + l.queried.length + l.rated.length + l.appended.length, 0)
    expect(successes + failures.length).toBe(6 * OPS)

    // Uses: counted by every reader at once (ledger), and in the files after the fold.
    const uses = countUses(logs)
    const expected = new Map(BASE_SKILLS.map((s) => [s.id, uses.get(s.id) ?? 0]))
    const lib = await openLibrary(dir)
    expect(fetchCounts((await lib.list()).skills)).toEqual(expected)
    await lib.foldUsage()
    const files = await openLibrary(dir)
    expect(fetchCounts((await files.list()).skills)).toEqual(expected)
    expect(fs.readFileSync(path.join(dir, `skill_${GIT}.md`), 'utf8')).toMatch(new RegExp(`^fetch_count: ${expected.get(GIT)}$`, 'm'))

    // Ratings: one unbroken chain from 0.5 through every reported rating to the value on disk.
    const rated = logs.flatMap((l) => l.rated)
    const git = await files.get(GIT)
    expect(rated.length).toBeGreaterThanOrEqual(50)
    expect(ratingsChain(0.5, rated, git.quality_index)).toBe(true)

    // Appends: every reported one is in the body, once.
    const joke = await files.get(JOKE)
    for (const text of logs.flatMap((l) => l.appended)) expect(occurrences(joke.body, text.trim())).toBe(1)
    expect(tempFilesIn(dir)).toEqual([])
  })

  it('SIGKILLed at random moments (folds included), agents lose nothing they were told succeeded, and the next open leaves no temp file', async () => {
    const dir = agentLibrary()
    const env = { ...AGENT_ENV, SKILLBENCH_FOLD_AFTER_BYTES: '400' } // fold every few queries, so kills land in folds too
    Object.assign(AGENT_ENV, env)
    const logs = Array.from({ length: 4 }, emptyLog)
    let killedInFlight = 0
    const killedOps: Op[] = []
    // Two CLI agents whose calls are killed at random moments, two MCP servers killed and restarted.
    const cliAgent = async (a: number): Promise<void> => {
      for (const op of opsFor(a)) {
        const r = await cliCall(dir, op, (pid) => {
          if (Math.random() < 0.3) setTimeout(() => { try { process.kill(pid, 'SIGKILL') } catch { /* already done */ } }, 30 + Math.random() * 400)
        })
        if (r.signal === 'SIGKILL') {
          killedInFlight++
          killedOps.push(op)
          continue
        }
        if (r.answer?.status === 'success') {
          if (op.kind === 'query') logs[a]!.queried.push((r.answer.skills as { skill_id: string }[]).map((s) => s.skill_id))
          else if (op.kind === 'rate') logs[a]!.rated.push({ old: Number(r.answer.old_quality_index), next: Number(r.answer.new_quality_index) })
          else logs[a]!.appended.push(op.text)
        } else logs[a]!.failures.push(r.error ?? String(r.answer?.message))
      }
    }
    const mcpAgent = async (a: number): Promise<void> => {
      let agent = await startMcpAgent(dir)
      for (const op of opsFor(a)) {
        if (Math.random() < 0.15 && agent.pid) {
          // Killed while answering this call: its outcome is unknown to the agent.
          const call = mcpCall(agent.client, op)
          setTimeout(() => { try { process.kill(agent.pid!, 'SIGKILL') } catch { /* gone */ } }, Math.random() * 30)
          await call
          killedInFlight++
          killedOps.push(op)
          await agent.close().catch(() => undefined)
          agent = await startMcpAgent(dir)
          continue
        }
        const r = await mcpCall(agent.client, op)
        if (r.answer?.status === 'success') {
          if (op.kind === 'query') logs[a]!.queried.push((r.answer.skills as { skill_id: string }[]).map((s) => s.skill_id))
          else if (op.kind === 'rate') logs[a]!.rated.push({ old: Number(r.answer.old_quality_index), next: Number(r.answer.new_quality_index) })
          else logs[a]!.appended.push(op.text)
        } else logs[a]!.failures.push(r.error ?? String(r.answer?.message))
      }
      await agent.close()
    }
    try {
      await Promise.all([cliAgent(0), cliAgent(1), mcpAgent(2), mcpAgent(3)])
    } finally {
      delete (AGENT_ENV as Record<string, string>).SKILLBENCH_FOLD_AFTER_BYTES
    }
    expect(killedInFlight).toBeGreaterThan(0)
    for (const f of logs.flatMap((l) => l.failures)) expect(f).toMatch(CLEAR_FAILURE)

    // The agents folded the ledger into the files several times on their own (so kills could land in folds).
    const ledger = fs.readFileSync(path.join(dir, '.skillbench', 'usage.jsonl'), 'utf8')
    expect(occurrences(ledger, '"t":"fold"')).toBeGreaterThan(2)
    const lib = await openLibrary(dir)
    expect(tempFilesIn(dir)).toEqual([])
    const counts = fetchCounts((await lib.list()).skills)
    const told = countUses(logs)
    // Each killed query may or may not have counted (up to 2 skills each); nothing reported may be missing.
    const maybe = killedOps.filter((o) => o.kind === 'query').length * 2
    let extra = 0
    for (const s of BASE_SKILLS) {
      const got = counts.get(s.id) ?? 0
      const want = told.get(s.id) ?? 0
      expect(got).toBeGreaterThanOrEqual(want)
      extra += got - want
    }
    expect(extra).toBeLessThanOrEqual(maybe)
    await lib.foldUsage()
    expect(fetchCounts((await (await openLibrary(dir)).list()).skills)).toEqual(counts)
    const joke = await lib.get(JOKE)
    for (const text of logs.flatMap((l) => l.appended)) expect(occurrences(joke.body, text.trim())).toBe(1)
    const ledgerDir = fs.readdirSync(path.join(dir, '.skillbench'))
    expect(ledgerDir).not.toContain('usage-fold.json')
    expect(ledgerDir).not.toContain('lock')
  })

  it('accept of a merge racing an edit of a member, 100 rounds: the journal and the files always agree', async () => {
    const dir = agentLibrary()
    const base = new Map(BASE_SKILLS.map((s) => [`skill_${s.id}.md`, skillFileText(s)]))
    const plan = await curateLibrary(await openForCuration(dir))
    const merge = plan.proposals.find((p) => p.kind === 'merge')!
    expect(merge.changes.map((c) => c.path).sort()).toEqual([`legacy/skill_${CALC2}.md`, `skill_${CALC}.md`, `skill_${CALC2}.md`])
    const planText = fs.readFileSync(path.join(dir, '.skillbench', 'plan.json'), 'utf8')
    const outcomes = { acceptWon: 0, editWon: 0, both: 0 }
    // Two long-lived processes race each round: an acceptor (as `skillbench accept`) and an agent's MCP server editing.
    const acceptor = await startAcceptor()
    const editor = await startMcpAgent(dir)
    for (let round = 0; round < 100; round++) {
      // The library as it was when the plan was made.
      fs.rmSync(path.join(dir, '.skillbench'), { recursive: true, force: true })
      fs.rmSync(path.join(dir, 'legacy'), { recursive: true, force: true })
      for (const [name, text] of base) fs.writeFileSync(path.join(dir, name), text)
      fs.mkdirSync(path.join(dir, '.skillbench'))
      fs.writeFileSync(path.join(dir, '.skillbench', 'plan.json'), planText)
      const target = round % 2 === 0 ? CALC : CALC2
      const marker = `<!-- round ${round} -->`
      const [accept, edit] = await Promise.all([acceptor.accept(dir, merge.id), mcpCall(editor.client, { kind: 'append', id: target, text: `\n${marker}\n` })])
      const accepted = accept.ok
      const edited = edit.answer?.status === 'success'
      if (!accepted) expect(accept.error).toMatch(/changed on disk|conflict|library busy/)
      if (!edited) expect(String(edit.answer?.message ?? edit.error)).toMatch(/no active skill|is retired|changed on disk|library busy/)
      const { records } = await readJournal(dir)
      const applied = records.filter((r) => r.action === 'apply' && r.proposal_id === merge.id)
      expect(applied.length).toBe(accepted ? 1 : 0)
      // An edit also sets updated_at: compared without it.
      const stamp = (t: string | null): string | null => t && t.replace(/^updated_at: .*$/m, 'updated_at: T')
      const disk = (rel: string): string | null => stamp(fs.existsSync(path.join(dir, rel)) ? fs.readFileSync(path.join(dir, rel), 'utf8') : null)
      if (accepted) {
        // Every file is the journal's "after" — with the edit on top when it came second (only the kept skill can be edited then).
        for (const c of applied[0]!.changes) {
          const withEdit = edited && target === CALC && c.path === `skill_${CALC}.md`
          expect(disk(c.path)).toBe(stamp(c.after === null ? null : withEdit ? `${c.after}\n${marker}\n` : c.after))
        }
        if (edited) expect(target).toBe(CALC)
        outcomes[edited ? 'both' : 'acceptWon']++
      } else {
        const name = `skill_${target}.md`
        expect(disk(name)).toBe(stamp(edited ? `${base.get(name)}\n${marker}\n` : base.get(name)!))
        expect(disk(`legacy/skill_${CALC2}.md`)).toBeNull()
        outcomes.editWon++
      }
    }
    acceptor.stop()
    await editor.close()
    // Both orders happened (the race is real), and no round broke the agreement.
    expect(outcomes.acceptWon + outcomes.both + outcomes.editWon).toBe(100)
    expect(outcomes.editWon).toBeGreaterThan(0)
    expect(outcomes.acceptWon + outcomes.both).toBeGreaterThan(0)
  })
})

let acceptorBundle: Promise<string> | undefined

/** The acceptor child (bundled once): accept(root, id) resolves with its outcome. */
async function startAcceptor(): Promise<{ accept: (root: string, id: string) => Promise<{ ok: boolean; error?: string }>; stop: () => void }> {
  acceptorBundle ??= bundleChild(path.join(__dirname, 'accept-child.ts'), fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acceptor-')))
  const p = spawn(process.execPath, [await acceptorBundle], { env: AGENT_ENV, stdio: ['pipe', 'pipe', 'inherit'] })
  const waiting: ((r: { ok: boolean; error?: string }) => void)[] = []
  let buf = ''
  p.stdout.on('data', (d: Buffer) => {
    buf += d.toString()
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      waiting.shift()?.(JSON.parse(line) as { ok: boolean; error?: string })
    }
  })
  return {
    accept: (root, id) =>
      new Promise((resolve) => {
        waiting.push(resolve)
        p.stdin.write(`${root} ${id}\n`)
      }),
    stop: () => p.kill()
  }
}
