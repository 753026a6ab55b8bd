/**
 * The usage index on crafted logs of every source (issue 14): each kind of use, each outcome, the baseline, the
 * ledger's own query hits (current and archived, one counted with its task), and what must not count.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SkillUsage, UsageReport } from '../../src/shared/types'
import { openLibrary } from '../../src/main/store/library'
import { collectUsage, dataRootOfLibrary, defaultUsageSources, parseSince, UsageScanner } from '../../src/main/usage/service'
import { ARCHIVED_AT, IDS, LEDGER_ONLY_AT, writeAgiRoot, writeClaudeSession, writeCodexRollout, writeLedger, writeLibrary, writeSynapseSession } from './fixtures'

let tmp: string
let lib: string
let report: UsageReport

/** name → [uses, completed, failed, interrupted, corrected] */
function figures(u: SkillUsage): number[] {
  return [u.uses, u.completed, u.failed, u.interrupted, u.corrected]
}
function byName(name: string): SkillUsage {
  const u = report.skills.find((s) => s.name === name || s.skill_id === name)
  if (!u) throw new Error(`no skill ${name}`)
  return u
}
/** Each task as "source task outcome how". */
function tasksOf(name: string): string[] {
  return byName(name).tasks.map((t) => `${t.source} ${t.task ?? '-'} ${t.outcome ?? '-'} ${t.how.join('+')}`)
}

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-usage-')))
  lib = path.join(tmp, 'library')
  writeLibrary(lib)
  writeLedger(lib)
  writeClaudeSession(path.join(tmp, 'claude'))
  writeCodexRollout(path.join(tmp, 'codex'), lib)
  writeAgiRoot(path.join(tmp, 'root'))
  writeSynapseSession(path.join(tmp, 'synapse'))
  const store = await openLibrary(lib)
  const skills = (await store.list()).skills
  report = await collectUsage({
    root: store.root,
    skills,
    sources: [
      { kind: 'agiagent', dir: path.join(tmp, 'root') },
      { kind: 'claude', dir: path.join(tmp, 'claude') },
      { kind: 'codex', dir: path.join(tmp, 'codex') },
      { kind: 'synapse', dir: path.join(tmp, 'synapse') }
    ],
    now: new Date('2026-11-23T12:00:00Z')
  })
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('usage index on crafted Claude Code, Codex, AGIAgent and Synapse logs', () => {
  it('Claude Code: the Skill tool, an invoked_skills attachment, a Read and a `cat` of SKILL.md, an MCP query_skill', () => {
    expect(tasksOf('pdf-report')).toContain('claude session-usage#1 completed skill-tool')
    expect(tasksOf('deploy-check')).toContain('claude session-usage#2 failed invoked')
    expect(tasksOf('brainstorming')).toContain('claude session-usage#3 interrupted read')
    expect(tasksOf('git-cleanup')).toEqual(['claude session-usage#4 corrected read'])
    expect(tasksOf(IDS.joke)).toContain('claude session-usage#6 completed query')
  })

  it('Codex: a `sed -n` read, `skill:load`, an older shell tool reading a library file by its relative path, MCP queries', () => {
    expect(tasksOf('test-driven-development')).toEqual(['codex rollout-2026-11-11T10-00-00-usage#1 completed read'])
    expect(tasksOf('deploy-check')).toContain('codex rollout-2026-11-11T10-00-00-usage#2 failed load')
    expect(tasksOf('pdf-report')).toContain('codex rollout-2026-11-11T10-00-00-usage#3 interrupted read')
    expect(tasksOf(IDS.joke)).toContain('codex rollout-2026-11-11T10-00-00-usage#5 corrected query')
    expect(tasksOf(IDS.calculator)).toContain('codex rollout-2026-11-11T10-00-00-usage#6 completed query')
  })

  it('AGIAgent: the ids a query_skill result lists, a read of a skill file by its name, skill:load, a `cat`', () => {
    expect(tasksOf(IDS.calculator)).toContain('agiagent output_20261120_101500 completed query')
    expect(tasksOf(IDS.calculator)).toContain('agiagent output_20261120_111500 failed read')
    expect(tasksOf('pdf-report')).toContain('agiagent output_20261120_121500 corrected load')
    expect(tasksOf(IDS.joke)).toContain('agiagent output_20261120_141500 interrupted read')
  })

  it('Synapse: a read through its read tool', () => {
    expect(tasksOf('brainstorming')).toContain('synapse syn-1#1 completed read')
  })

  it('counts every outcome per skill', () => {
    expect(figures(byName('pdf-report'))).toEqual([3, 1, 0, 1, 1])
    expect(figures(byName('deploy-check'))).toEqual([2, 0, 2, 0, 0])
    expect(figures(byName('brainstorming'))).toEqual([2, 1, 0, 1, 0])
    expect(figures(byName('git-cleanup'))).toEqual([1, 0, 0, 0, 1])
    expect(figures(byName('test-driven-development'))).toEqual([1, 1, 0, 0, 0])
    // two tasks and the CLI's query (no task), the archived MCP query for the joke; the MCP query the Claude log shows is counted once
    expect(figures(byName(IDS.calculator))).toEqual([4, 2, 1, 0, 0])
    expect(figures(byName(IDS.joke))).toEqual([4, 1, 0, 1, 1])
  })

  it('says why a task failed or was corrected', () => {
    const failed = byName(IDS.calculator).tasks.find((t) => t.outcome === 'failed')!
    expect(failed.error).toMatch(/SyntaxError/)
    expect(byName('git-cleanup').tasks[0]!.correction).toMatch(/^That's wrong, you deleted main/)
    expect(byName('pdf-report').tasks.find((t) => t.source === 'agiagent')!.correction).toMatch(/^不对/)
  })

  it("records Skillbench's own query hits: the current ledger and the archive, never twice with a logged query", () => {
    const cli = byName(IDS.calculator).tasks.find((t) => t.task === null)!
    expect(cli).toMatchObject({ source: 'cli', outcome: null, how: ['query'], at: new Date(LEDGER_ONLY_AT).toISOString() })
    const joke = byName(IDS.joke).tasks.filter((t) => t.task === null)
    expect(joke).toEqual([{ source: 'mcp', task: null, at: new Date(ARCHIVED_AT).toISOString(), outcome: null, how: ['query'] }])
    expect(report.sources.find((s) => s.kind === 'ledger')).toMatchObject({ tasks: 3 })
  })

  it('no false uses: a failed Read, a Glob or `rg` listing SKILL.md files, a skills list in a prompt, an id the library lacks, a replay after compaction', () => {
    expect(figures(byName('never-touched'))).toEqual([0, 0, 0, 0, 0])
    expect(byName('never-touched').verdict).toBe('unused')
    expect(figures(byName(IDS.stale))).toEqual([0, 0, 0, 0, 0])
    // pdf-report: the replayed attachment in Claude task 8 adds nothing
    expect(byName('pdf-report').tasks.filter((t) => t.source === 'claude')).toHaveLength(1)
  })

  it('the baseline: tasks of the same sources that used no skill of the library, with their outcomes', () => {
    // Claude 5, 7, 8 (completed); Codex 4 (completed); AGIAgent 131500 (failed)
    expect(report.baseline).toEqual({ tasks: 5, completed: 4, failed: 1, interrupted: 0, corrected: 0 })
    // a skill used only in Claude and Codex compares with those sources' baseline alone
    expect(byName('deploy-check').baseline).toEqual({ tasks: 4, completed: 4, failed: 0, interrupted: 0, corrected: 0 })
    expect(byName('pdf-report').baseline.tasks).toBe(5)
  })

  it('honest on small numbers: below 5 uses the verdict is "too few to tell"', () => {
    for (const u of report.skills.filter((s) => s.uses > 0)) expect(u.verdict).toBe('too-few')
  })

  it('last_used_at is the newest use, tasks newest first', () => {
    const pdf = byName('pdf-report')
    expect(pdf.last_used_at).toBe(pdf.tasks[0]!.at)
    expect(pdf.tasks.map((t) => t.at)).toEqual([...pdf.tasks.map((t) => t.at)].sort().reverse())
    expect(byName('never-touched').last_used_at).toBeNull()
  })

  it('--since keeps only uses and baseline tasks from then on', async () => {
    const store = await openLibrary(lib)
    const since = parseSince('2026-11-11', new Date('2026-11-23T12:00:00Z'))!
    const later = await collectUsage({
      root: store.root,
      skills: (await store.list()).skills,
      sources: [
        { kind: 'claude', dir: path.join(tmp, 'claude') },
        { kind: 'codex', dir: path.join(tmp, 'codex') }
      ],
      since
    })
    expect(later.since).toBe(new Date(since).toISOString())
    // Claude's session was on the 10th: only the Codex rollout (11th) and the CLI query (12th) remain
    expect(later.skills.find((s) => s.name === 'pdf-report')!.tasks.map((t) => t.source)).toEqual(['codex'])
    expect(later.skills.find((s) => s.skill_id === IDS.calculator)!.tasks.map((t) => t.source)).toEqual(['cli', 'codex'])
    expect(later.skills.find((s) => s.skill_id === IDS.joke)!.tasks.map((t) => t.source)).toEqual(['codex'])
    expect(later.baseline.tasks).toBe(1)
  })

  it('a source that cannot be read is named, the rest still counts', async () => {
    const store = await openLibrary(lib)
    const r = await collectUsage({ root: store.root, skills: (await store.list()).skills, sources: [{ kind: 'claude', dir: path.join(tmp, 'nowhere') }] })
    expect(r.problems.join('\n')).toMatch(/nowhere/)
    expect(r.skills.find((s) => s.skill_id === IDS.calculator)!.uses).toBe(1)
  })
})

describe('usage sources and caches', () => {
  it("finds a library's data root and the session folders at their usual places", () => {
    expect(dataRootOfLibrary('/data/alice/general/experience')).toBe('/data')
    expect(dataRootOfLibrary('/somewhere/skills')).toBeNull()
    const home = path.join(tmp, 'home')
    fs.mkdirSync(path.join(home, '.codex', 'sessions'), { recursive: true })
    expect(defaultUsageSources('/data/alice/general/experience', { SKILLBENCH_HOME: home })).toEqual([
      { kind: 'agiagent', dir: '/data' },
      { kind: 'codex', dir: path.join(home, '.codex', 'sessions') }
    ])
  })

  it('parses --since as a date, a date-time or days back, and refuses anything else', () => {
    const now = new Date('2026-11-23T12:00:00Z')
    expect(parseSince('30d', now)).toBe(now.getTime() - 30 * 86_400_000)
    expect(parseSince('2026-11-01', now)).toBe(new Date(2026, 10, 1).getTime())
    expect(parseSince('2026-11-01T10:00:00Z', now)).toBe(Date.parse('2026-11-01T10:00:00Z'))
    expect(parseSince('2026-02-31', now)).toBeNull()
    expect(parseSince('last week', now)).toBeNull()
  })

  it('a rescan of unchanged session files reuses their parses (persisted per folder), a changed file is parsed again', async () => {
    const env = { SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
    const dir = path.join(tmp, 'codex')
    const first = new UsageScanner({ persist: true, env })
    const a = await first.scan({ kind: 'codex', dir })
    await first.save()
    const second = new UsageScanner({ persist: true, env })
    const b = await second.scan({ kind: 'codex', dir })
    expect(b.tasks).toEqual(a.tasks)
    const cacheFiles = fs.readdirSync(env.SKILLBENCH_CACHE_DIR)
    expect(cacheFiles.length).toBe(1)
    // appending a task changes the file: it is read again
    const file = path.join(dir, '2026', '11', '11', 'rollout-2026-11-11T10-00-00-usage.jsonl')
    fs.appendFileSync(file, JSON.stringify({ timestamp: '2026-11-11T11:00:00Z', type: 'event_msg', payload: { type: 'user_message', message: 'one more' } }) + '\n')
    const c = await second.scan({ kind: 'codex', dir })
    expect(c.tasks.length).toBe(a.tasks.length + 1)
  })
})

describe('deployed copies', () => {
  it('a copy under another name says which skill it is: by the id it carries, or by a link into the library', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-copies-')))
    try {
      const library = path.join(base, 'lib')
      writeLibrary(library)
      // ~/.claude/skills/calc-py: the calculator exported as SKILL.md under another name, keeping its id
      const home = path.join(base, 'home')
      const calc = path.join(home, '.claude', 'skills', 'calc-py', 'SKILL.md')
      fs.mkdirSync(path.dirname(calc), { recursive: true })
      fs.writeFileSync(calc, `---\nname: calc-py\ndescription: A calculator\nmetadata:\n  skillbench:\n    skill_id: '${IDS.calculator}'\n---\n\nSteps.\n`)
      // ~/.codex/skills/pdf → the library's pdf-report folder
      fs.mkdirSync(path.join(home, '.codex', 'skills'), { recursive: true })
      fs.symlinkSync(path.join(library, 'skills', 'pdf-report'), path.join(home, '.codex', 'skills', 'pdf'))
      const rec = (ts: string, type: string, payload: Record<string, unknown>): string => JSON.stringify({ timestamp: ts, type, payload })
      const codex = path.join(base, 'codex')
      fs.mkdirSync(codex)
      fs.writeFileSync(
        path.join(codex, 'rollout-copies.jsonl'),
        [
          rec('2026-11-15T10:00:00Z', 'event_msg', { type: 'user_message', message: 'add 2 and 2' }),
          rec('2026-11-15T10:00:01Z', 'response_item', { type: 'function_call', name: 'exec_command', call_id: 'a', arguments: JSON.stringify({ cmd: `cat ${calc}` }) }),
          rec('2026-11-15T10:00:02Z', 'response_item', { type: 'function_call_output', call_id: 'a', output: 'Process exited with code 0' }),
          rec('2026-11-15T10:00:03Z', 'event_msg', { type: 'task_complete', last_agent_message: '4' }),
          rec('2026-11-15T10:01:00Z', 'event_msg', { type: 'user_message', message: 'the monthly pdf' }),
          rec('2026-11-15T10:01:01Z', 'response_item', { type: 'function_call', name: 'exec_command', call_id: 'b', arguments: JSON.stringify({ cmd: `head -40 ${path.join(home, '.codex', 'skills', 'pdf', 'SKILL.md')}` }) }),
          rec('2026-11-15T10:01:02Z', 'response_item', { type: 'function_call_output', call_id: 'b', output: 'Process exited with code 0' }),
          rec('2026-11-15T10:01:03Z', 'event_msg', { type: 'task_complete', last_agent_message: 'done' })
        ].join('\n') + '\n'
      )
      const store = await openLibrary(library)
      const r = await collectUsage({ root: store.root, skills: (await store.list()).skills, sources: [{ kind: 'codex', dir: codex }] })
      const uses = Object.fromEntries(r.skills.filter((s) => s.uses > 0).map((s) => [s.name, s.tasks.map((t) => t.task)]))
      expect(uses).toEqual({ 'pdf-report': ['rollout-copies#2'], 'skill_Calculator in Python': ['rollout-copies#1'] })
      // the copy was only read
      expect(fs.readFileSync(calc, 'utf8')).toMatch(/^---\nname: calc-py/)
    } finally {
      fs.rmSync(base, { recursive: true, force: true })
    }
  })
})
