import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { acceptProposal } from '../../src/main/review/decisions'
import { loadPlan } from '../../src/main/review/plan'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import {
  decideOffline,
  decideSystemPrompt,
  formatDecisionReport,
  isTrivialTask,
  parseDecisionAnswer
} from '../../src/main/reflect/decide'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import { openLibrary } from '../../src/main/store/library'
import type { QueriedSkill } from '../../src/shared/types'
import type { ReflectionEvent } from '../../src/main/reflect/types'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { calculatorTrace, jokeTrace } from './fixtures'
import { CALC_LOG, makeRoot, skillFiles } from './make-root'

function candidate(over: Partial<QueriedSkill> = {}): QueriedSkill {
  return {
    skill_id: '1700000000',
    title: 'Python calculator with tests',
    usage_conditions: 'Use for small calculators',
    quality_index: 0.5,
    fetch_count: 0,
    related_code: '',
    task_directories: ['output_old'],
    created_at: '2026-01-01T00:00:00',
    updated_at: '2026-01-01T00:00:00',
    last_used_at: null,
    user_preferences: '',
    similarity_score: 0.5,
    content: '## Approach\n1. Write calculator.py\n2. Run pytest\n',
    path: 'skill_Python calculator.md',
    format: 'agiagent',
    ...over
  }
}

describe('decideOffline', () => {
  it('none for a trivial task', () => {
    const t = jokeTrace({ requirements: ['你好', '你好'] })
    expect(isTrivialTask(t)).toBe(true)
    const d = decideOffline(t, [])
    expect(d.report.operation).toBe('none')
    expect(d.report.reason).toMatch(/简单/)
    expect(isTrivialTask(jokeTrace())).toBe(false)
  })

  it('create when nothing is close', () => {
    const d = decideOffline(calculatorTrace(), [candidate({ similarity_score: 0.1, title: 'Web scraping' })])
    expect(d.report.operation).toBe('create')
    expect(d.draft?.title).toMatch(/^Write a small Python/)
    expect(d.report.tools_used).toEqual(['query_skill', 'edit_file', 'run_terminal_cmd'])
    expect(d.report.changes).toContain('Approach')
    const d2 = decideOffline(calculatorTrace(), [])
    expect(d2.report.operation).toBe('create')
    expect(d2.report.reason).toBe('no related skill in the library')
  })

  it('none when a close skill covers a task that went well', () => {
    const d = decideOffline(calculatorTrace({ errors: [] }), [candidate({ similarity_score: 0.8 })])
    expect(d.report).toMatchObject({ operation: 'none', skill_id: '1700000000' })
    expect(d.report.reason).toMatch(/already covered/)
  })

  it('enhance a close skill with the new pitfall and the example request', () => {
    const d = decideOffline(calculatorTrace(), [candidate({ similarity_score: 0.8 }), candidate({ skill_id: '2', similarity_score: 0.31 })])
    expect(d.report.operation).toBe('enhance')
    expect(d.report.skill_id).toBe('1700000000')
    expect(d.enhancement!.newBody.startsWith('## Approach\n1. Write calculator.py')).toBe(true)
    expect(d.enhancement!.newBody).toContain('## More from output_20261101_093000')
    expect(d.enhancement!.newBody).toContain('No module named pytest')
    expect(d.report.changes!.some((c) => c.startsWith('Added pitfall'))).toBe(true)
    expect(d.report.changes!.some((c) => c.startsWith('Added example'))).toBe(true)
  })

  it('none when the close skill already says everything the task taught', () => {
    const t = calculatorTrace()
    const content =
      '## Pitfalls\n- Tool run_terminal_cmd error: No module named pytest — fixed by running run_terminal_cmd again (pip install pytest && python -m pytest -q)\n' +
      `Example: ${t.requirements[0]}\n`
    const d = decideOffline(t, [candidate({ similarity_score: 0.45, content })])
    expect(d.report.operation).toBe('none')
    expect(d.report.reason).toMatch(/taught nothing/)
  })

  it('formats the seed report in both languages', () => {
    const d = decideOffline(calculatorTrace(), [candidate({ similarity_score: 0.8 })])
    const en = formatDecisionReport(d.report, 'en')
    expect(en).toMatch(/^Skill enhancement done:\n- Operation: enhance skill\n- Name: Python calculator with tests\n- Changes:\n {2}- Added pitfall/)
    const zh = formatDecisionReport({ ...d.report, operation: 'create', changes: ['分析日志文件'] }, 'zh')
    expect(zh).toContain('技能强化完成：\n- 操作：新增技能')
    expect(zh).toContain('- 包含工具：query_skill, edit_file, run_terminal_cmd')
    expect(zh).toContain('- 技能内容：\n  - 分析日志文件')
    expect(formatDecisionReport({ ...d.report, operation: 'none', reason: '已覆盖' }, 'zh')).toBe('技能强化分析完成：\n- 结论：无需强化\n- 原因：已覆盖')
  })
})

describe('parseDecisionAnswer and prompts', () => {
  it('reads labels tolerantly; CONTENT keeps everything after it', () => {
    const a = parseDecisionAnswer('**Operation:** Enhance\nskill id: 42\nNAME: x\nCHANGES:\n- a\n- b\nCONTENT:\n## Steps\nOPERATION: none\n')
    expect(a.OPERATION).toBe('Enhance')
    expect(a.SKILL_ID).toBe('42')
    expect(a.CHANGES).toBe('- a\n- b')
    expect(a.CONTENT).toBe('## Steps\nOPERATION: none')
    expect(parseDecisionAnswer('')).toEqual({})
  })
  it('the system prompt carries both editable meta-skills', () => {
    const p = decideSystemPrompt('en')
    expect(p).toContain('OPERATION: create | enhance | none')
    expect(p).toContain('name: skill-creator')
    expect(p).toContain('name: skill-enhance')
  })
  it('the meta-skills are valid Agent Skills files', () => {
    for (const name of ['skill-creator', 'skill-enhance']) {
      const text = fs.readFileSync(path.resolve(__dirname, '../../resources/meta-skills', name, 'SKILL.md'), 'utf8')
      const fm = /^---\n([\s\S]*?)\n---\n/.exec(text)![1]!
      const keys = fm.split('\n').filter((l) => /^\S/.test(l)).map((l) => l.split(':')[0])
      expect(keys).toEqual(['name', 'description'])
      expect(fm).toContain(`name: ${name}`)
      const description = /description: (.*)/.exec(fm)![1]!
      expect(description.length).toBeLessThanOrEqual(1024)
      expect(name).toMatch(/^[a-z0-9-]{1,64}$/)
    }
  })
})

const EXISTING = [
  '---',
  "skill_id: '1700000000'",
  'title: Python calculator with pytest tests',
  'usage_conditions: Use when asked to write a Python calculator with unit tests',
  'quality_index: 0.6',
  'fetch_count: 2',
  "related_code: ''",
  'task_directories:',
  '- output_old',
  "created_at: '2026-01-01T00:00:00'",
  "updated_at: '2026-01-01T00:00:00'",
  'last_used_at: null',
  "user_preferences: ''",
  '---',
  '',
  '# Python calculator with unit tests',
  '1. Write calc.py with add.',
  '2. Write a Python calculator with unit tests using pytest.',
  ''
].join('\n')

function rootWithSkill(): { root: string; lib: string } {
  const root = makeRoot([{ dir: 'alice/output_calc', log: CALC_LOG, workspace: { 'calc.py': 'x\n' } }])
  const lib = libraryDirFor(root, 'alice')
  fs.mkdirSync(lib, { recursive: true })
  fs.writeFileSync(path.join(lib, 'skill_Python calculator.md'), EXISTING)
  return { root, lib }
}

describe('runReflection with decisions (offline)', () => {
  it('proposes an enhancement for review, leaves the skill untouched, and accepting it applies the diff', async () => {
    const { root, lib } = rootWithSkill()
    const events: ReflectionEvent[] = []
    const s = await runReflection({ rootDir: root, decide: true, onEvent: (e) => events.push(e) }, defaultReflectionDeps())
    // the decided line by code (the app words it), the message still the seed's own report (the CLI prints it)
    const decided = events.find((e) => e.decision)!
    expect(decided).toMatchObject({ kind: 'task-done', messageCode: 'reflect.enhancement_proposed', params: { title: 'Python calculator with pytest tests', id: s.proposals![0] } })
    expect(decided.message).toBe(formatDecisionReport(decided.decision!, 'en'))
    expect(decided.message).toMatch(/^Skill enhancement done:\n- Operation: enhance skill/)
    expect(translateLine(decided, decided.message!, 'zh')).toBe(`“Python calculator with pytest tests”的强化已提交审阅（${s.proposals![0]}）`)
    expect(s.created).toEqual([])
    // the summary's skipped entry: the same words and code as the line
    expect(s.skipped).toEqual([{ taskDir: 'output_calc', reason: `enhancement of "Python calculator with pytest tests" proposed for review (${s.proposals![0]})`, messageCode: 'reflect.enhancement_proposed', params: { title: 'Python calculator with pytest tests', id: s.proposals![0]! } }])
    expect(s.decisions!.map((d) => d.operation)).toEqual(['enhance'])
    expect(s.proposals).toHaveLength(1)
    expect(fs.readFileSync(path.join(lib, 'skill_Python calculator.md'), 'utf8')).toBe(EXISTING)
    expect(skillFiles(lib)).toEqual(['skill_Python calculator.md'])

    const plan = await loadPlan(lib)
    const p = plan.proposals.find((x) => x.id === s.proposals![0])!
    expect(p.kind).toBe('enhance')
    expect(p.status).toBe('pending')
    expect(p.changes[0]!.before).toBe(EXISTING)

    // a second run does not propose again
    const again = await runReflection({ rootDir: root, decide: true }, defaultReflectionDeps())
    expect(again.skipped.map((x) => [x.reason, x.messageCode])).toEqual([['enhancement pending review', 'reflect.enhancement_pending']])
    expect((await loadPlan(lib)).proposals).toHaveLength(1)

    await acceptProposal((await openLibrary(lib)).root, p.id, 'test')
    const skill = (await (await openLibrary(lib)).list()).skills[0]!
    expect(skill.task_directories).toEqual(['output_old', 'output_calc'])
    expect(skill.body).toContain('## More from output_calc')
    expect(skill.body).toContain('No module named pytest')
    // and now the task counts as reflected
    const third = await runReflection({ rootDir: root, decide: true }, defaultReflectionDeps())
    expect(third.skipped.map((x) => [x.reason, x.messageCode])).toEqual([['already reflected', 'reflect.already']])
  })

  it('creates when the library is empty and says none for a greeting', async () => {
    const root = makeRoot([
      { dir: 'bob/output_calc', log: CALC_LOG, ageSec: 5 },
      { dir: 'bob/output_hi', log: 'Received user requirement: 你好\nTASK_COMPLETED: 问候🎉 Workflow completed!\n' }
    ])
    const s = await runReflection({ rootDir: root, decide: true }, defaultReflectionDeps())
    // a greeting is judged before any decision (issue 36): no skill, and the reason says so
    expect(s.decisions!.map((d) => [d.taskDir, d.operation])).toEqual([['output_calc', 'create']])
    expect(s.skipped).toEqual([{ taskDir: 'output_hi', reason: 'greeting', messageCode: 'reflect.why_greeting', params: {}, why: 'greeting' }])
    expect(skillFiles(libraryDirFor(root, 'bob'))).toHaveLength(1)
  })
})

let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('runReflection with decisions (model over the local OpenAI-protocol server)', () => {
  const llm = (url: string) => createOpenAiClient({ baseUrl: url, model: 'decider', apiKey: 'k', retryBaseMs: 5, retryMaxMs: 10, maxRetries: 0 })

  it('enhance: asks with the meta-skills and candidates, saves the model body as a proposal', async () => {
    const { root, lib } = rootWithSkill()
    server = await startOpenAiServer(() => ({
      json: chatCompletion(
        'OPERATION: enhance\nSKILL_ID: 1700000000\nNAME: Python calculator\nTOOLS: edit_file, run_terminal_cmd\nREASON: pytest was missing\nCHANGES:\n- Added pitfall: install pytest first\nCONTENT:\n# Python calculator\n1. pip install pytest\n2. Write calc.py\n'
      )
    }))
    const s = await runReflection({ rootDir: root, decide: true, mode: 'openai' }, defaultReflectionDeps({ llm: llm(server.url) }))
    expect(s.failed).toEqual([])
    const body = server.requests[0]!.body as { messages: { content: string }[] }
    expect(body.messages[0]!.content).toContain('name: skill-enhance')
    expect(body.messages[1]!.content).toContain('SKILL_ID 1700000000')
    expect(body.messages[1]!.content).toContain('Write a Python calculator with unit tests')
    const p = (await loadPlan(lib)).proposals[0]!
    expect(p.author).toBe('test-model')
    expect(p.changes[0]!.after).toContain('1. pip install pytest')
    expect(p.changes[0]!.after).toContain("skill_id: '1700000000'")
    expect(s.decisions![0]).toMatchObject({ operation: 'enhance', changes: ['Added pitfall: install pytest first'], tools_used: ['edit_file', 'run_terminal_cmd'] })
    expect(fs.readFileSync(path.join(lib, 'skill_Python calculator.md'), 'utf8')).toBe(EXISTING)
  })

  it('create: writes the model content; none: writes nothing', async () => {
    const root = makeRoot([
      { dir: 'carol/output_a', log: CALC_LOG, ageSec: 5 },
      { dir: 'carol/output_b', log: CALC_LOG.replace('calculator', 'parser') }
    ])
    server = await startOpenAiServer((_r, i) => ({
      json: chatCompletion(
        i === 0
          ? 'OPERATION: none\nREASON: too small\n'
          : 'OPERATION: create\nNAME: Testing a calculator\nCHANGES:\n- steps\nCONTENT:\n```markdown\n# Testing a calculator\n## Steps\n1. pytest\n```'
      )
    }))
    const events: ReflectionEvent[] = []
    const s = await runReflection({ rootDir: root, decide: true, mode: 'openai', concurrency: 1, onEvent: (e) => events.push(e) }, defaultReflectionDeps({ llm: llm(server.url) }))
    expect(s.decisions!.map((d) => d.operation)).toEqual(['none', 'create'])
    const none = events.find((e) => e.decision?.operation === 'none')!
    expect(none).toMatchObject({ kind: 'task-skipped', messageCode: 'reflect.nothing_to_change', params: { reason: 'too small' } })
    expect(none.message).toBe('Skill enhancement analysis done:\n- Decision: nothing to change\n- Reason: too small')
    expect(s.skipped).toEqual([{ taskDir: none.taskDir, reason: 'nothing to change: too small', messageCode: 'reflect.nothing_to_change', params: { reason: 'too small' } }])
    const created = events.find((e) => e.decision?.operation === 'create')!
    expect(created).toMatchObject({ kind: 'task-done', messageCode: 'reflect.generated' })
    const skills = (await (await openLibrary(libraryDirFor(root, 'carol'))).list()).skills
    expect(skills).toHaveLength(1)
    expect(skills[0]!.title).toBe('Testing a calculator')
    expect(skills[0]!.body).toBe('# Testing a calculator\n## Steps\n1. pytest\n')
  })

  it('a model that names a skill outside the candidates fails the task and changes nothing', async () => {
    const { root, lib } = rootWithSkill()
    server = await startOpenAiServer(() => ({ json: chatCompletion('OPERATION: enhance\nSKILL_ID: ../../etc/passwd\nCONTENT:\nowned') }))
    const s = await runReflection({ rootDir: root, decide: true, mode: 'openai' }, defaultReflectionDeps({ llm: llm(server.url) }))
    expect(s.failed).toHaveLength(1)
    expect(s.failed[0]!.error).toMatch(/not a candidate/)
    expect(fs.existsSync(path.join(lib, '.skillbench', 'plan.json'))).toBe(false)
    expect(fs.readFileSync(path.join(lib, 'skill_Python calculator.md'), 'utf8')).toBe(EXISTING)
  })
})
