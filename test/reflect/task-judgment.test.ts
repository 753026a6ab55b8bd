import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import type { TaskTrace } from '../../src/shared/types'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { reflectOffline } from '../../src/main/reflect/offline-reflector'
import { cleanRequest, isGreeting, isPermissionPrompt, startsAsContinuation } from '../../src/main/reflect/requests'
import { libraryDirFor, runReflection } from '../../src/main/reflect/run-reflection'
import { foldParts, judgeTasks, noSkillReason } from '../../src/main/reflect/task-judgment'
import { sharedShare, sharesPhrase, withinEdits, WordIndex } from '../../src/main/reflect/topic-overlap'
import { contentWordList } from '../../src/main/reflect/requests'
import { readTrajectories } from '../../bench/real-trajectories'
import { openLibrary } from '../../src/main/store/library'
import { scanSessions } from '../../src/main/scan/sessions'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { CALC_LOG, makeRoot, skillFiles } from './make-root'

/** A session task `name#n` as the Claude Code adapter gives it. */
function sessionTask(n: number, request: string, over: Partial<TaskTrace> = {}): TaskTrace {
  return {
    source: 'claude',
    user: '',
    taskDir: `s1#${n}`,
    path: '/x/s1.jsonl',
    mtime: 1,
    status: 'completed',
    completed: true,
    requirements: [request],
    toolCalls: [],
    errors: [],
    interruptions: 0,
    agentMessages: [],
    files: [],
    ...over
  }
}
const work = (n: number) => Array.from({ length: n }, (_, i) => ({ agent: 'main', name: i % 2 ? 'Bash' : 'Edit', params: { command: `step ${i}`, file_path: `f${i}.ts` } }))

describe('requests: greetings, continuations, wrappers', () => {
  it.each(['你好', '你好！', 'hi', 'Hello there!', 'thanks, bye', '谢谢', '在吗？', 'hey 👋', 'good morning'])('%j is a greeting', (t) => {
    expect(isGreeting(t)).toBe(true)
  })
  it.each(['你好，写一个笑话，中文的', 'hi, fix the failing test in parser.ts', 'Hello world program in Rust', 'thanks to the cache the build is slow; find out why'])(
    '%j is not a greeting',
    (t) => expect(isGreeting(t)).toBe(false)
  )
  it.each(['continue', 'Great, thanks! Can you also add tests?', "it's good, but the issue is…", 'great, but keep in mind that new file…', '继续', '好的，再加一个导出功能', 'more context: option 1 is not acceptable'])(
    '%j continues the task before it',
    (t) => expect(startsAsContinuation(t)).toBe(true)
  )
  it.each(['create hello.py', 'analyze history.jsonl', 'Work on bead spotter-dov', "let's update the default context"])('%j starts something', (t) => {
    expect(startsAsContinuation(t)).toBe(false)
  })
  it('drops the wrappers agents add around what was asked', () => {
    expect(cleanRequest('# Files mentioned by the user:\n\n## a.vtt: /tmp/a.vtt\n\n## My request for Codex:\nanalyze the transcript')).toBe('analyze the transcript')
    expect(cleanRequest('/handgemacht:create-beads websearch credo setup')).toBe('websearch credo setup')
    expect(cleanRequest('ultrathink there is logic that tracks files')).toBe('there is logic that tracks files')
    expect(cleanRequest('@"solution-architect (agent)" analyze the CLI')).toBe('analyze the CLI')
  })
  it('a declined tool use is a permission prompt, a real failure is not', () => {
    expect(isPermissionPrompt("Bash: The user doesn't want to proceed with this tool use. The tool use was rejected")).toBe(true)
    expect(isPermissionPrompt('Read: <tool_use_error>File does not exist.</tool_use_error>')).toBe(false)
  })
})

describe('topic overlap: typos forgiven, phrases of the last turn', () => {
  it('one typo in a word of 5–7 letters, two from 8, a swap of neighbours counts one; short words and Han pairs exact', () => {
    expect(withinEdits('plaform', 'platform', 1)).toBe(true)
    expect(withinEdits('capaiblitie', 'capabilitie', 2)).toBe(true)
    const index = new WordIndex()
    for (const w of ['platform', 'capabilitie', 'demo', 'scenario', '部署', 'scale']) index.add(w)
    expect(index.has('plaform')).toBe(true)
    expect(index.has('capaiblitie')).toBe(true)
    expect(index.has('dema')).toBe(false) // under 5 letters: exact only
    expect(index.has('scala')).toBe(true)
    expect(index.has('部门')).toBe(false)
    expect(index.has('xplatform')).toBe(false) // another first letter
    expect(sharedShare(new Set(['plaform', 'scenario', 'budget', 'chart']), index)).toBe(0.5)
  })
  it('a phrase is two distinctive words in a row within a sentence', () => {
    const last = contentWordList('Draft the demo scenario around governance. Budgets matter')
    expect(sharesPhrase(contentWordList('prepare a short demo scenaro for the platform'), last)).toBe(true)
    expect(sharesPhrase(contentWordList('the scenario of the demo'), last)).toBe(false)
    expect(sharesPhrase(contentWordList('governance budgets review'), last)).toBe(false) // "governance. Budgets" crosses a sentence
    expect(sharesPhrase(contentWordList('部署流程的检查'), contentWordList('先写部署流程'))).toBe(true)
  })
})

describe('judging the tasks of a session', () => {
  it('folds follow-ups into the task they continue; the unit ends as its last part ends', () => {
    const judged = judgeTasks([
      sessionTask(1, 'Add CSV export to the report page', { toolCalls: work(6), status: 'interrupted', completed: false, interruptions: 1 }),
      sessionTask(2, 'continue', { toolCalls: work(3) }),
      sessionTask(3, 'Great, thanks! Can you also add a test for the export?', { toolCalls: work(4) }),
      sessionTask(4, 'thanks')
    ])
    expect(judged.units.map((u) => u.members)).toEqual([['s1#1', 's1#2', 's1#3', 's1#4']])
    const unit = judged.units[0]!.trace
    expect(unit.completed).toBe(true)
    expect(unit.toolCalls).toHaveLength(13)
    const draft = reflectOffline(unit)
    expect(draft.title).toBe('Add CSV export to the report page')
    expect(draft.body).toContain('## Follow-up requests\n1. continue\n2. Great, thanks! Can you also add a test for the export?')
    expect(draft.body).not.toMatch(/^\d\. thanks$/m)
  })

  it('greetings, idle answers, small jobs and unfinished work make no skill, each saying why', () => {
    const judged = judgeTasks([
      sessionTask(1, '你好'),
      sessionTask(2, 'show tools', { toolCalls: work(1) }),
      { ...sessionTask(1, 'Refactor the parser into modules', { toolCalls: work(9), status: 'incomplete', completed: false }), taskDir: 's2#1', path: '/x/s2.jsonl' },
      { ...sessionTask(1, 'What does HTTP 418 mean?'), taskDir: 's3#1', path: '/x/s3.jsonl' }
    ])
    expect(judged.units).toEqual([])
    expect(judged.none.map((n) => [n.trace.taskDir, n.why])).toEqual([
      ['s1#1', 'greeting'],
      ['s1#2', 'little-work'],
      ['s2#1', 'unfinished'],
      ['s3#1', 'no-work']
    ])
    expect(noSkillReason('follow-up', 's1#1')).toBe('follow-up of s1#1')
  })

  it('a new, self-contained request starts a new task; a greeting never absorbs the task after it', () => {
    const judged = judgeTasks([
      sessionTask(1, 'hi'),
      sessionTask(2, 'Set up ESLint flat config for the monorepo packages', { toolCalls: work(5) }),
      sessionTask(3, 'Write a migration that renames the users.email column to login', { toolCalls: work(5) })
    ])
    expect(judged.units.map((u) => u.members)).toEqual([['s1#2'], ['s1#3']])
    expect(judged.none.map((n) => n.why)).toEqual(['greeting'])
  })

  it('a request that picks up a phrase of the last turn and some of the task\'s words continues it, typos forgiven; a new task of the same project does not', () => {
    const judged = judgeTasks([
      sessionTask(1, 'Review the quarterly sales report for the Berlin office and list the open questions for the finance team', {
        toolCalls: work(6),
        finalText: 'Open questions: the refund ledger does not match the invoice totals; the Berlin office budget misses March.'
      }),
      sessionTask(2, 'someone in finance should own the refund ledger reconciliation', { finalText: 'Agreed: the finance team owns the refund ledger reconciliation.' }),
      // a third of its words are the task's (one typed wrong), below half; and "refund ledger" comes from the turn just before
      sessionTask(3, 'pull the acounting export from the ERP and draft a refund ledger checklist for finnance', { toolCalls: work(8) }),
      // same project ("Berlin office"), but no phrase of the last turn: a task of its own
      sessionTask(4, 'Set up a nightly backup of the Berlin office file server to the S3 bucket with lifecycle rules', { toolCalls: work(7) })
    ])
    expect(judged.units.map((u) => u.members)).toEqual([['s1#1', 's1#2', 's1#3'], ['s1#4']])
  })

  it('an unfinished task\'s follow-ups point at it', () => {
    const judged = judgeTasks([sessionTask(1, 'Migrate the build to Vite', { toolCalls: work(5), status: 'interrupted', completed: false }), sessionTask(2, 'no, keep webpack for the worker', { status: 'interrupted', completed: false })])
    expect(judged.none.map((n) => [n.trace.taskDir, noSkillReason(n.why, n.of)])).toEqual([
      ['s1#1', 'unfinished'],
      ['s1#2', 'follow-up of s1#1']
    ])
  })

  it('fold keeps the head\'s folder and every follow-up\'s files once', () => {
    const unit = foldParts([sessionTask(1, 'a', { files: ['x.ts'] }), sessionTask(2, 'b', { files: ['x.ts', 'y.ts'], finalText: 'done' })])
    expect(unit.trace.taskDir).toBe('s1#1')
    expect(unit.trace.files).toEqual(['x.ts', 'y.ts'])
    expect(unit.trace.finalText).toBe('done')
  })
})

describe.skipIf(!HAS_REAL_DATA)('judging real Claude Code and Codex sessions', () => {
  const load = async (): Promise<TaskTrace[]> => [
    ...(await scanSessions({ source: 'claude', dir: realPath('sessions', 'claude_code') })).tasks,
    ...(await scanSessions({ source: 'codex', dir: realPath('sessions', 'codex_cli') })).tasks
  ]

  it('the /clear design session is one task: its 12 follow-ups fold in and none is a title', async () => {
    const judged = judgeTasks(await load())
    const unit = judged.units.find((u) => u.trace.taskDir === 'session-196820da#1')!
    expect(unit.members).toHaveLength(13)
    const draft = reflectOffline(unit.trace)
    expect(draft.title).toBe('There is logic that tracks files in claude…')
    expect(draft.title).not.toMatch(/ultrathink/i)
    expect(draft.title.length).toBeLessThanOrEqual(50)
    expect(draft.title).toMatch(/[a-z]…$/) // cut after a whole word
    for (const u of judged.units) expect(reflectOffline(u.trace).title).not.toMatch(/^(great|continue|thanks|it's good|more context)/i)
  })

  it('the plan interrupted for approval and "create the beads" make one finished task', async () => {
    const judged = judgeTasks(await load())
    const unit = judged.units.find((u) => u.trace.taskDir === 'subagent#1')!
    expect(unit.members).toEqual(['subagent#1', 'subagent#2'])
    expect(unit.trace.completed).toBe(true)
    expect(reflectOffline(unit.trace).title).toMatch(/^Websearch to learn how to fastest setup credo/)
  })

  it('the declined tool uses of a real session are no pitfall', async () => {
    const short = (await load()).find((t) => t.taskDir === 'short#1')!
    expect(short.errors.some(isPermissionPrompt)).toBe(true)
    const body = reflectOffline({ ...short, completed: true, status: 'completed' }).body
    expect(body).not.toContain("doesn't want to proceed")
    expect(judgeTasks([short]).none[0]!.why).toBe('unfinished')
  })

  it('the Codex request wrapper never reaches the title', async () => {
    const judged = judgeTasks(await load())
    const unit = judged.units.find((u) => u.trace.taskDir.startsWith('rollout-2026-05-11T13-28-45') && u.trace.taskDir.endsWith('#1'))!
    expect(reflectOffline(unit.trace).title).toBe('Analyze trascript and summarzie action items…')
  })
})

describe('unfinished tasks are reflected once they finish, never frozen', () => {
  it('an AGIAgent task without TASK_COMPLETED makes no skill; after it completes the next run reflects it', async () => {
    const unfinished = CALC_LOG.replace(/TASK_COMPLETED:.*\n/, '')
    const root = makeRoot([{ dir: 'eve/output_20260101_000001', log: unfinished }])
    const deps = defaultReflectionDeps()
    const first = await runReflection({ rootDir: root }, deps)
    expect(first.created).toEqual([])
    expect(first.skipped).toEqual([{ taskDir: 'output_20260101_000001', reason: 'unfinished', messageCode: 'reflect.why_unfinished', params: {}, why: 'unfinished' }])
    const lib = libraryDirFor(root, 'eve')
    expect(skillFiles(lib)).toEqual([])
    // no "结果：未完成" skill, so nothing marks the task as already reflected
    const again = await runReflection({ rootDir: root }, deps)
    expect(again.skipped.map((s) => s.why)).toEqual(['unfinished'])

    fs.writeFileSync(path.join(root, 'eve', 'output_20260101_000001', 'logs', 'manager.out'), CALC_LOG)
    const done = await runReflection({ rootDir: root }, deps)
    expect(done.created.map((c) => c.taskDir)).toEqual(['output_20260101_000001'])
    const skill = (await (await openLibrary(lib)).list()).skills[0]!
    expect(skill.body).toContain('**Outcome:** Completed.')
    expect(skill.body).not.toMatch(/Not finished|未完成/)
  })
})

describe.skipIf(!HAS_REAL_DATA)('the model path judges the same way (local OpenAI-protocol server)', () => {
  let server: OpenAiTestServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('real Claude Code sessions: the model is asked only about the tasks worth a skill, follow-ups folded in, titles from the request', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion('Task completed successfully\n\nWhat worked: the steps.\n\nFILES_TO_BACKUP:\n\nUSAGE_CONDITIONS: similar work') }))
    const { tasks } = await scanSessions({ source: 'claude', dir: realPath('sessions', 'claude_code') })
    const library = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-judge-llm-'))
    const llm = createOpenAiClient({ baseUrl: server.url, model: 'judge-model', apiKey: 'k', retryBaseMs: 5, retryMaxMs: 10 })
    const offline = judgeTasks(tasks)
    const summary = await runReflection({ rootDir: library, library, traces: tasks, mode: 'openai' }, defaultReflectionDeps({ llm }))
    expect(summary.failed).toEqual([])
    // one request per task worth a skill, none for the greeting / unfinished / follow-up ones
    expect(server.requests).toHaveLength(offline.units.length)
    expect(summary.created.map((c) => c.taskDir).sort()).toEqual(offline.units.map((u) => u.trace.taskDir).sort())
    expect(summary.skipped.filter((s) => s.why).map((s) => [s.taskDir, s.why]).sort()).toEqual(offline.none.map((n) => [n.trace.taskDir, n.why]).sort())
    const asked = server.requests.map((r) => (r.body as { messages: { content: string }[] }).messages[1]!.content)
    const clear = asked.find((a) => a.includes('sso conversation tracking'))!
    expect(clear).toContain('Task: ultrathink there is logic')
    expect(clear).toContain('Follow-up 12: create document in /specs folder')
    const declined = asked.find((a) => a.includes('create-beads'))!
    expect(declined).toContain('Follow-up 1: create the beads')
    const { skills } = await (await openLibrary(library)).list()
    // the model's "Task completed successfully" never becomes a title or a name
    for (const s of skills) expect(s.title).not.toMatch(/completed successfully/i)
    const clearSkill = skills.find((s) => s.task_directories.includes('session-196820da#13'))!
    expect(clearSkill.task_directories).toHaveLength(13)
    // an empty chosen library is an Agent Skills folder: named from the request ("claude" is reserved in names)
    expect(path.dirname(clearSkill.path)).toBe('there-is-logic-that-tracks-files-in')
  })
})

describe.skipIf(!HAS_REAL_DATA)('the labelled set (bench/labels/reflection-tasks.json)', () => {
  it('labels every real session task; on every set no skill comes from a greeting or an unfinished task, and each skill-worthy task is found', async () => {
    const labels = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'bench', 'labels', 'reflection-tasks.json'), 'utf8')) as {
      tasks: { set: string; task: string; skill: boolean; why?: string }[]
    }
    for (const [set, source, dir] of [
      ['claude_code', 'claude', 'claude_code'],
      ['codex_cli', 'codex', 'codex_cli']
    ] as const) {
      const { tasks } = await scanSessions({ source, dir: realPath('sessions', dir) })
      const byTask = new Map(labels.tasks.filter((l) => l.set === set).map((l) => [l.task, l]))
      expect(tasks.filter((t) => !byTask.has(t.taskDir)).map((t) => t.taskDir)).toEqual([])
      const heads = judgeTasks(tasks).units.map((u) => u.trace.taskDir)
      expect(heads.filter((h) => ['greeting', 'unfinished'].includes(byTask.get(h)!.why ?? ''))).toEqual([])
      expect([...byTask.values()].filter((l) => l.skill && !heads.includes(l.task))).toEqual([])
      // no skill from a follow-up either (Codex: the demo scenario picked up from the turn before folds in)
      expect(heads.filter((h) => byTask.get(h)!.why === 'follow-up')).toEqual([])
    }
  })

  it('on the trajectories of two agents it was never tuned on (OpenHands, SWE-agent), no skill from a greeting, a follow-up or an unfinished task, and each skill-worthy task is found', () => {
    const labels = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'bench', 'labels', 'reflection-tasks.json'), 'utf8')) as {
      tasks: { set: string; task: string; skill: boolean; why?: string; of?: string }[]
    }
    for (const [set, kind, dir] of [
      ['openhands', 'openhands', 'openhands_traj'],
      ['swe_agent', 'swe-agent', 'swe_agent_traj']
    ] as const) {
      const tasks = readTrajectories(kind, realPath('sessions', dir))
      const byTask = new Map(labels.tasks.filter((l) => l.set === set).map((l) => [l.task, l]))
      expect(tasks.map((t) => t.taskDir).sort()).toEqual([...byTask.keys()].sort())
      const judged = judgeTasks(tasks)
      const heads = judged.units.map((u) => u.trace.taskDir)
      expect(heads.filter((h) => ['greeting', 'unfinished', 'follow-up'].includes(byTask.get(h)!.why ?? ''))).toEqual([])
      expect([...byTask.values()].filter((l) => l.skill && !heads.includes(l.task))).toEqual([])
      for (const n of judged.none.filter((x) => x.why === 'follow-up')) expect(n.of).toBe(byTask.get(n.trace.taskDir)!.of)
    }
  })
})
