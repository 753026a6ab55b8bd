/**
 * Seed 003 through the CLI: `skillbench memory evolve` over crafted Claude Code sessions (English and Chinese)
 * proposes lessons (hallucinated tool, critic), preferences and a tool-statistics note, each once; accept, undo
 * and a key-value preference's new value go through `skillbench accept / undo`; real sessions read in place.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import type { Proposal } from '../../src/shared/types'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { claudeSession, writeEvolveSessions } from './evolve-fixtures'

const dirs: string[] = []
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-evolve-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: CliIo = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, cwd, env: { SKILLBENCH_HOME: cwd }, signal: new AbortController().signal }
  const code = await main(argv, io)
  return { code, out, err }
}

interface EvolveJson {
  tasks: number
  proposed: Proposal[]
  skipped: { entry: string; target: string; reason: string }[]
}

/** A data-root user: library at root/alice/general/experience, memory at root/alice/memory. */
function setup(): { root: string; lib: string; ws: string; sessions: string } {
  const root = tmp()
  const lib = path.join(root, 'alice', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  fs.writeFileSync(path.join(lib, 'skill_deploy.md'), '---\nskill_id: "1"\ntitle: Deploy\nusage_conditions: when deploying\nquality_index: 0.5\nfetch_count: 0\n---\n\nSteps.\n')
  const sessions = path.join(root, 'sessions')
  writeEvolveSessions(sessions)
  return { root, lib, ws: path.join(root, 'alice'), sessions }
}

/** A proposal's reason: its English, code and params (the English re-rendered from them), and its Chinese by that code. */
function byCode(p: Proposal): { reason: string; code: unknown; params: unknown; zh: string } {
  expect(p.messageCode, `${p.reason} has no code`).toBeDefined()
  expect(englishText({ messageCode: p.messageCode!, params: p.params! })).toBe(p.reason)
  return { reason: p.reason, code: p.messageCode, params: p.params, zh: translateMessage({ messageCode: p.messageCode, params: p.params }, p.reason, 'zh') }
}

const entriesOf = (p: Proposal): string[] => (p.evidence.memory as { entries: string[] }).entries
const targetOf = (p: Proposal): string => (p.evidence.memory as { target: string }).target

describe('skillbench memory evolve (seed 003)', () => {
  it('turns a hallucinated tool, critic suggestions, preferences and tool failures into proposals, each once (zh)', async () => {
    const { lib, ws, sessions, root } = setup()
    const r = await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--lang', 'zh', '--json'], root)
    expect(r.code, r.err).toBe(0)
    const j = JSON.parse(r.out) as EvolveJson
    expect(j.tasks).toBe(5)
    const lessons = j.proposed.filter((p) => targetOf(p) === 'lessons').flatMap(entriesOf)
    // two invented tools with the same real tools make one rule; the two similar Chinese critic lines make one
    expect(lessons).toEqual([
      '仅使用以下已注册工具：Bash、Read；不要编造不存在的工具名（例如曾误用「web_search」）。',
      // in the order the tasks ran: the Chinese session's critic spoke a few seconds earlier
      'Critic 建议：搜索前先确认域名在白名单内',
      'Critic 建议：check the domain is on the allowlist before searching.'
    ])
    expect(j.skipped).toContainEqual({ entry: '仅使用以下已注册工具：Bash、Read；不要编造不存在的工具名（例如曾误用「search_web」）。', target: 'lessons', reason: 'proposed', proposal_id: j.proposed[0]!.id })
    expect(j.proposed.filter((p) => targetOf(p) === 'preferences').flatMap(entriesOf)).toEqual([
      'use pnpm instead of npm',
      'Always run the tests before saying done',
      '缩进：2 空格',
      '用中文回答',
      'language: zh'
    ])
    const notes = j.proposed.filter((p) => targetOf(p) === 'procedural')
    expect(notes).toHaveLength(1)
    expect(entriesOf(notes[0]!)).toEqual(['Bash：8 次调用中失败 3 次（38%），成功率 62%；最常见的错误：“Exit code 1 npm ERR! Missing script: \'test\'”。调用前先核对参数与前提条件。'])
    // the invented tools are not counted as tools
    expect(notes[0]!.reason).toBe('5 task(s), 12 tool call(s): Bash 8 calls, 38% errors; Read 4 calls, 0% errors')
    // each reason by code beside its unchanged English (issue 40): the tools a list of coded items, worded in Chinese
    expect(byCode(notes[0]!)).toEqual({
      reason: '5 task(s), 12 tool call(s): Bash 8 calls, 38% errors; Read 4 calls, 0% errors',
      code: 'memory.reason_tool_stats',
      params: {
        tasks: 5,
        calls: 12,
        tools: { messageCode: 'text.list', params: { first: { messageCode: 'memory.tool_stat', params: { tool: 'Bash', calls: 8, pct: 38 } }, rest: { messageCode: 'memory.tool_stat', params: { tool: 'Read', calls: 4, pct: 0 } } } }
      },
      zh: '5 个任务，12 次工具调用：Bash 调用 8 次，38% 出错；Read 调用 4 次，0% 出错'
    })
    const lessonProposals = j.proposed.filter((p) => targetOf(p) === 'lessons')
    expect(byCode(lessonProposals[0]!)).toEqual({
      reason: 'The agent called "web_search", a tool that does not exist, in 1 task(s); it has 2 real tool(s).',
      code: 'memory.reason_hallucinated',
      params: { tool: 'web_search', n: 1, valid: 2 },
      zh: '智能体在 1 个任务中调用了不存在的工具“web_search”；它有 2 个真实工具。'
    })
    expect(lessonProposals.slice(1).map(byCode)).toEqual([
      { reason: 'A critic suggested this in 1 task(s), and 1 similar suggestion(s) with it.', code: 'memory.reason_critic_similar', params: { n: 1, similar: 1 }, zh: 'Critic 在 1 个任务中提出了这条建议，另有 1 条相似建议。' },
      { reason: 'A critic suggested this in 1 task(s).', code: 'memory.reason_critic', params: { n: 1 }, zh: 'Critic 在 1 个任务中提出了这条建议。' }
    ])
    const prefProposals = j.proposed.filter((p) => targetOf(p) === 'preferences')
    expect(byCode(prefProposals[0]!)).toEqual({ reason: 'The user said so in 1 task(s).', code: 'memory.reason_preference', params: { n: 1 }, zh: '用户在 1 个任务中这样说过。' })
    // the plan on disk carries the same
    const onDisk = (JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: Proposal[] }).proposals.filter((p) => p.kind === 'memory')
    expect(onDisk.map((p) => [p.reason, p.messageCode, p.params])).toEqual(j.proposed.map((p) => [p.reason, p.messageCode, p.params]))
    // the memory files are untouched until a person accepts
    expect(fs.existsSync(path.join(ws, 'memory'))).toBe(false)

    // the same sessions again: nothing new
    const again = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--lang', 'zh', '--json'], root)).out) as EvolveJson
    expect(again.proposed).toEqual([])
    expect(again.skipped.every((s) => s.reason === 'proposed')).toBe(true)

    // reviewable in the review engine: listed, accepted one by one
    const listed = JSON.parse((await run(['proposals', '--library', lib, '--json'], root)).out) as { proposals: Proposal[] }
    expect(listed.proposals.filter((p) => p.kind === 'memory')).toHaveLength(j.proposed.length)
    for (const p of j.proposed) {
      const a = await run(['accept', p.id, '--library', lib], root)
      expect(a.code, a.err).toBe(0)
    }
    const lessonsMd = fs.readFileSync(path.join(ws, 'memory', 'lessons.md'), 'utf8')
    expect(lessonsMd).toContain('- 仅使用以下已注册工具：Bash、Read；不要编造不存在的工具名（例如曾误用「web_search」）。\n')
    expect(lessonsMd).toContain('- Critic 建议：搜索前先确认域名在白名单内\n')
    const prefs = fs.readFileSync(path.join(ws, 'memory', 'preferences.md'), 'utf8')
    expect(prefs).toContain('- 缩进：2 空格\n')
    expect(prefs).toContain('- language: zh\n')
    const longTerm = fs.readFileSync(path.join(ws, 'memory', 'long-term.md'), 'utf8')
    expect(longTerm).toMatch(/## Preferences \/ 用户偏好\n\n- use pnpm instead of npm\n- Always run the tests before saying done\n- 缩进：2 空格\n- 用中文回答\n- language: zh\n$/)
    expect(fs.readFileSync(path.join(ws, 'memory', 'procedural.md'), 'utf8')).toMatch(/^- Bash: 8 次调用中失败 3 次/m)

    // once in memory, found again = skipped as in memory
    const third = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--lang', 'zh', '--json'], root)).out) as EvolveJson
    expect(third.proposed).toEqual([])

    // the system prompt carries them
    const prompt = (await run(['memory', 'prompt', '--workspace', ws], root)).out
    expect(prompt).toContain('## 行为约束 / Lessons')
    expect(prompt).toContain('The user prefers:\n')
    expect(prompt).toContain('- 缩进：2 空格')
  })

  it('keeps key-value preferences as key-value: a new value replaces the old, undo brings it back', async () => {
    const { lib, ws, sessions, root } = setup()
    const first = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--no-tool-stats', '--json'], root)).out) as EvolveJson
    for (const p of first.proposed.filter((x) => targetOf(x) === 'preferences')) expect((await run(['accept', p.id, '--library', lib], root)).code).toBe(0)
    const later = path.join(root, 'later')
    fs.mkdirSync(later)
    fs.writeFileSync(path.join(later, '33333333-3333-4333-8333-333333333333.jsonl'), claudeSession('33333333-3333-4333-8333-333333333333', [{ user: '记住：缩进：4 空格\nFrom now on: Language: en\nlanguage: de' }, { say: 'ok' }]))
    const second = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', later, '--library', lib, '--json'], root)).out) as EvolveJson
    expect(second.proposed.flatMap(entriesOf)).toEqual(['缩进：4 空格', 'Language: en'])
    // the diff a reviewer sees replaces the line
    expect(second.proposed[0]!.changes[0]!.after).toContain('- 缩进：4 空格\n')
    expect(second.proposed[0]!.changes[0]!.after).not.toContain('缩进：2 空格')
    const accepted = await run(['accept', second.proposed[0]!.id, '--library', lib, '--json'], root)
    expect(JSON.parse(accepted.out).changes).toEqual(['memory/preferences.md', 'memory/long-term.md'])
    const prefs = () => fs.readFileSync(path.join(ws, 'memory', 'preferences.md'), 'utf8')
    const longTerm = () => fs.readFileSync(path.join(ws, 'memory', 'long-term.md'), 'utf8')
    expect(prefs().match(/缩进/g)).toHaveLength(1)
    expect(prefs()).toContain('- 缩进：4 空格\n')
    expect(longTerm()).toContain('- 缩进：4 空格\n')
    expect(longTerm()).not.toContain('缩进：2 空格')
    const undo = await run(['undo', second.proposed[0]!.id, '--library', lib], root)
    expect(undo.code, undo.err).toBe(0)
    expect(prefs()).toContain('- 缩进：2 空格\n')
    expect(prefs()).not.toContain('4 空格')
    expect(longTerm()).toContain('- 缩进：2 空格\n')
    // undone twice is refused, nothing changes
    expect((await run(['undo', second.proposed[0]!.id, '--library', lib], root)).code).not.toBe(0)
  })

  it('reflect --evolve-memory proposes the same lessons in the same run as the skills, and evolve finds them already proposed', async () => {
    const { lib, ws, sessions, root } = setup()
    const r = await run(['reflect', '--claude-dir', sessions, '--library', lib, '--evolve-memory', ws, '--lang', 'zh', '--json'], root)
    expect(r.code, r.err).toBe(0)
    const summary = JSON.parse(r.out) as { memory?: { proposed: string[]; skipped: number } }
    expect(summary.memory?.proposed.length).toBeGreaterThanOrEqual(5)
    const listed = JSON.parse((await run(['proposals', '--library', lib, '--json'], root)).out) as { proposals: Proposal[] } | Proposal[]
    const pending = (Array.isArray(listed) ? listed : listed.proposals).filter((p) => p.kind === 'memory')
    expect(pending.map((p) => p.id).sort()).toEqual([...summary.memory!.proposed].sort())
    expect(pending.flatMap(entriesOf)).toContain('仅使用以下已注册工具：Bash、Read；不要编造不存在的工具名（例如曾误用「web_search」）。')
    // the same tasks again through evolve: every finding is already proposed, none twice
    const again = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--lang', 'zh', '--json'], root)).out) as EvolveJson
    expect(again.proposed).toEqual([])
    // and the human summary says so
    const human = await run(['reflect', '--claude-dir', sessions, '--library', lib, '--evolve-memory', ws, '--lang', 'zh'], root)
    expect(human.out).toMatch(/Memory: 0 lesson\/preference\/tool note proposal\(s\) for review .*already there/)
  })

  it('a rejected lesson is not proposed again (en wording)', async () => {
    const { lib, ws, sessions, root } = setup()
    const j = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--no-preferences', '--json'], root)).out) as EvolveJson
    const lesson = j.proposed.find((p) => targetOf(p) === 'lessons')!
    expect(entriesOf(lesson)).toEqual(['Only use the registered tools: Bash, Read. Do not invent tool names (e.g. "web_search" was called but does not exist).'])
    expect(entriesOf(j.proposed.find((p) => targetOf(p) === 'procedural')!)[0]).toBe(
      'Bash: 3 of 8 calls failed (38%), success rate 62%; most common error: "Exit code 1 npm ERR! Missing script: \'test\'". Check its arguments and preconditions before calling it.'
    )
    expect((await run(['reject', lesson.id, '--library', lib], root)).code).toBe(0)
    const again = JSON.parse((await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions, '--library', lib, '--no-preferences', '--json'], root)).out) as EvolveJson
    expect(again.proposed).toEqual([])
    expect(again.skipped.find((s) => s.entry === entriesOf(lesson)[0])?.reason).toBe('rejected')
  })

  it('says what is missing', async () => {
    const { ws, sessions, root } = setup()
    const noLib = await run(['memory', 'evolve', '--workspace', ws, '--claude-dir', sessions], root)
    expect(noLib.code).not.toBe(0)
    expect(noLib.err).toMatch(/--library/)
    const noSource = await run(['memory', 'evolve', '--workspace', ws, '--library', root], root)
    expect(noSource.code).not.toBe(0)
    expect(noSource.err).toMatch(/one source of tasks/)
  })
})

describe.skipIf(!HAS_REAL_DATA)('memory evolve on real sessions (read in place)', () => {
  it('reports per-tool success and error rates of real Claude Code and Codex sessions, and invents no lesson', async () => {
    const root = tmp()
    const lib = path.join(root, 'lib')
    fs.mkdirSync(lib)
    const figures: string[] = []
    for (const [flag, dir] of [
      ['--claude-dir', realPath('sessions', 'claude_code', 'marot_spotter')],
      ['--claude-dir', realPath('sessions', 'claude_code', 'codemie-ai_codemie-code')],
      ['--codex-dir', realPath('sessions', 'codex_cli')]
    ] as const) {
      const r = await run(['memory', 'evolve', '--workspace', path.join(root, 'ws'), flag, dir, '--library', lib, '--json'], root)
      expect(r.code, r.err).toBe(0)
      const j = JSON.parse(r.out) as EvolveJson & { findings: { hallucinations: unknown[]; critic: unknown[]; tools: { tool: string; calls: number; known: number; failed: number }[] } }
      // nobody invented a tool or ran a critic in these sessions
      expect(j.findings.hallucinations).toEqual([])
      expect(j.findings.critic).toEqual([])
      expect(j.findings.tools.length).toBeGreaterThan(3)
      for (const s of j.findings.tools) {
        expect(s.failed).toBeLessThanOrEqual(s.known)
        expect(s.known).toBeLessThanOrEqual(s.calls)
      }
      figures.push(`${path.basename(dir)}: ${j.findings.tools.map((s) => `${s.tool} ${s.failed}/${s.known}`).join(', ')}`)
    }
    console.log(`[memory evolve, real sessions] failed/known calls per tool\n  ${figures.join('\n  ')}`)
  })
})
