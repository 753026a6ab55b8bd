/**
 * `skillbench reflect --force` (the app's "Reflect again" calls the same run) on a task a skill already came from:
 * it wrote `skill_Summarise sales.csv_<id>.md` beside the skill made from the same task, and the next curate
 * proposed merging the pair (similarity 1.00). Now the skill made from the task takes the new reflection as an update
 * proposal for review (accepted through the review engine), or, when the new reflection adds nothing, nothing is
 * written and the run says so. Through the real CLI (node bin/skillbench.cjs) on a temporary copy of the bundled
 * sample data root, in both library layouts (AGIAgent skill_*.md; SKILL.md folders for a session source), offline
 * and with a model (a real OpenAI-protocol HTTP server on 127.0.0.1).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseSkillText } from '../../src/main/store/skill-file'
import type { Proposal } from '../../src/shared/types'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { writeEvolveSessions } from '../memory/evolve-fixtures'

const ROOT = path.resolve(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const TASK = 'output_20261102_141500'

let dir: string
let data: string
let lib: string
let env: NodeJS.ProcessEnv
let server: OpenAiTestServer | undefined

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-again-')))
  data = path.join(dir, 'data')
  fs.cpSync(path.join(ROOT, 'resources', 'sample-data'), data, { recursive: true })
  lib = path.join(data, 'alice', 'general', 'experience')
  env = { SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'), SKILLBENCH_CACHE_DIR: path.join(dir, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off', OPENAI_API_KEY: 'sk-test' }
})

afterEach(async () => {
  await server?.close()
  server = undefined
  fs.rmSync(dir, { recursive: true, force: true })
})

/** `node bin/skillbench.cjs …`, without blocking this process (the model server answers from it). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

async function json<T>(args: string[]): Promise<T> {
  const r = await cli([...args, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

interface Summary {
  created: { taskDir: string; path: string }[]
  skipped: { taskDir: string; reason: string; messageCode?: string; params?: Record<string, unknown> }[]
  failed: unknown[]
  proposals?: string[]
}

/** Every skill file of a library (both layouts, bookkeeping folders aside), relative. */
function skillFiles(library: string): string[] {
  const out: string[] = []
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(library, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) {
        if (!['legacy', 'codes', 'logs', '.skillbench'].includes(e.name)) walk(r)
      } else if (/^skill_.*\.md$/.test(e.name) || e.name === 'SKILL.md') out.push(r)
    }
  }
  walk('')
  return out.sort()
}

/** The skill files whose task_directories list `task` (AGIAgent top level; SKILL.md under metadata.skillbench). */
function filesFrom(library: string, task: string): string[] {
  return skillFiles(library).filter((f) => {
    const parsed = parseSkillText(fs.readFileSync(path.join(library, f), 'utf8'))
    if (!parsed.ok) return false
    const d = parsed.file.data as { task_directories?: unknown; metadata?: { skillbench?: { task_directories?: unknown } } }
    const dirs = d.task_directories ?? d.metadata?.skillbench?.task_directories
    return Array.isArray(dirs) && dirs.includes(task)
  })
}

/** Curate proposes no merge (or consolidation) of two skills made from the same task. */
async function noMergeOfTask(libArgs: string[], library: string, task: string): Promise<void> {
  const plan = await json<{ proposals: Proposal[] }>(['curate', ...libArgs])
  const fromTask = new Set(filesFrom(library, task))
  const pairs = plan.proposals.filter((p) => (p.kind === 'merge' || p.kind === 'consolidate') && p.members.filter((m) => fromTask.has(m.path)).length > 0)
  expect(pairs.map((p) => [p.kind, p.score, p.members.map((m) => m.path)])).toEqual([])
}

const aliceArgs = (): string[] => ['--root-dir', data, '--user', 'alice']

describe('reflect --force on a task a skill came from: no second skill of the same task', () => {
  it('AGIAgent library, offline: the same result writes nothing and says so; curate proposes no merge', async () => {
    const first = await json<Summary>(['reflect', '--root-dir', data, '--task', TASK])
    expect(first.created.map((c) => c.taskDir)).toEqual([TASK])
    const files = skillFiles(lib)
    const made = filesFrom(lib, TASK)
    expect(made).toEqual(['skill_Summarise sales.csv.md'])
    const bytes = fs.readFileSync(path.join(lib, made[0]!), 'utf8')

    const forced = await json<Summary>(['reflect', '--root-dir', data, '--force', '--task', TASK])
    expect(forced.created).toEqual([])
    expect(forced.failed).toEqual([])
    expect(forced.proposals ?? []).toEqual([])
    expect(forced.skipped.map((s) => [s.taskDir, s.messageCode])).toEqual([[TASK, 'reflect.again_unchanged']])
    expect(forced.skipped[0]!.reason).toMatch(/^reflected again: "Summarise sales\.csv.*", the skill made from this task, stays as it is/)
    expect(skillFiles(lib)).toEqual(files)
    expect(filesFrom(lib, TASK)).toEqual(made)
    expect(fs.readFileSync(path.join(lib, made[0]!), 'utf8')).toBe(bytes)
    expect(fs.existsSync(path.join(lib, '.skillbench', 'plan.json')) ? (JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: Proposal[] }).proposals : []).toEqual([])

    // the human summary says it too, and never counts it as a task "without logs"
    const human = await cli(['reflect', '--root-dir', data, '--force', '--task', TASK])
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toMatch(/Created 0 skill\(s\); reflected again 1 \(0 update\(s\) of their skills proposed for review, 1 without a new update\); skipped 0 already reflected; failed 0\./)
    expect(human.stdout).toContain(`  ↻ ${TASK}: reflected again:`)
    expect(human.stderr).toContain(`Skipping ${TASK} (reflected again:`)
    expect(skillFiles(lib)).toEqual(files)

    await noMergeOfTask(aliceArgs(), lib, TASK)
  }, 60_000)

  it('AGIAgent library, with a model: a new result is an update proposal of that skill, accepted through review', async () => {
    let answer = 'Summarise sales\n\n## Steps\n- Read sales.csv with the csv module\n- Write report.md\n\nFILES_TO_BACKUP:\n\nUSAGE_CONDITIONS: when asked to summarise a sales CSV'
    server = await startOpenAiServer(() => ({ json: chatCompletion(answer, [], 'again-model') }))
    const model = ['--llm', 'openai', '--base-url', server.url, '--model', 'again-model']
    const first = await json<Summary>(['reflect', '--root-dir', data, '--task', TASK, ...model])
    expect(first.created.map((c) => c.taskDir)).toEqual([TASK])
    const files = skillFiles(lib)
    const made = filesFrom(lib, TASK)
    expect(made).toHaveLength(1)
    const skillPath = path.join(lib, made[0]!)
    const before = fs.readFileSync(skillPath, 'utf8')
    expect(before).toContain('Read sales.csv with the csv module')

    answer = answer.replace('- Write report.md', '- Round the totals to two decimals\n- Write report.md')
    const forced = await json<Summary>(['reflect', '--root-dir', data, '--force', '--task', TASK, ...model])
    expect(server.requests.length).toBe(2)
    expect(forced.created).toEqual([])
    expect(forced.failed).toEqual([])
    expect(forced.skipped.map((s) => [s.taskDir, s.messageCode])).toEqual([[TASK, 'reflect.again_proposed']])
    const id = forced.proposals?.[0]
    expect(id).toMatch(/^again-[0-9a-f]{12}$/)
    expect(forced.skipped[0]!.params).toMatchObject({ id })
    // nothing written until a person accepts: still one skill of the task, its text as it was
    expect(skillFiles(lib)).toEqual(files)
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(before)

    // the proposal is the review engine's: listed, an enhancement of that very skill
    const listed = await json<{ proposals: Proposal[] }>(['proposals', ...aliceArgs()])
    const proposal = listed.proposals.find((p) => p.id === id)!
    expect(proposal).toMatchObject({ kind: 'enhance', status: 'pending', author: 'again-model', evidence: { task: TASK, again: true } })
    expect(proposal.members.map((m) => m.path)).toEqual(made)

    // the same result again: the same proposal, said so, not a second one
    const twice = await json<Summary>(['reflect', '--root-dir', data, '--force', '--task', TASK, ...model])
    expect(twice.skipped.map((s) => [s.messageCode, s.params?.id])).toEqual([['reflect.again_proposed_before', id]])
    expect(twice.proposals ?? []).toEqual([])
    // without --force the task is reflected already, as before
    const plain = await json<Summary>(['reflect', '--root-dir', data, '--task', TASK, ...model])
    expect(plain.skipped.map((s) => s.messageCode)).toEqual(['reflect.already'])
    expect(server.requests.length).toBe(3)

    const accepted = await cli(['accept', id!, ...aliceArgs()])
    expect(accepted.code, accepted.stderr).toBe(0)
    expect(skillFiles(lib)).toEqual(files)
    expect(filesFrom(lib, TASK)).toEqual(made)
    const after = fs.readFileSync(skillPath, 'utf8')
    expect(after).toContain('Round the totals to two decimals')
    const parsed = parseSkillText(after)
    expect(parsed.ok && (parsed.file.data as { task_directories: string[] }).task_directories).toEqual([TASK])

    // reflected again once more with that same answer: the skill already says it, nothing is written
    const third = await json<Summary>(['reflect', '--root-dir', data, '--force', '--task', TASK, ...model])
    expect(third.skipped.map((s) => s.messageCode)).toEqual(['reflect.again_unchanged'])
    expect(fs.readFileSync(skillPath, 'utf8')).toBe(after)
    expect(skillFiles(lib)).toEqual(files)

    await noMergeOfTask(aliceArgs(), lib, TASK)
  }, 90_000)

  it('SKILL.md library (a session source), offline and with a model: one SKILL.md folder per task', async () => {
    const sessions = path.join(dir, 'sessions')
    writeEvolveSessions(sessions)
    const skills = path.join(dir, 'skills')
    fs.mkdirSync(skills)
    const source = ['--claude-dir', sessions, '--library', skills]
    const first = await json<Summary>(['reflect', ...source])
    expect(first.failed).toEqual([])
    const tasks = first.created.map((c) => c.taskDir).sort()
    expect(tasks.length).toBeGreaterThan(1)
    const files = skillFiles(skills)
    expect(files.every((f) => f.endsWith('/SKILL.md'))).toBe(true)
    const texts = files.map((f) => fs.readFileSync(path.join(skills, f), 'utf8'))

    const forced = await json<Summary>(['reflect', ...source, '--force'])
    expect(forced.created).toEqual([])
    expect(forced.failed).toEqual([])
    expect(forced.skipped.map((s) => [s.taskDir, s.messageCode]).sort()).toEqual(tasks.map((t) => [t, 'reflect.again_unchanged']))
    expect(skillFiles(skills)).toEqual(files)
    expect(files.map((f) => fs.readFileSync(path.join(skills, f), 'utf8'))).toEqual(texts)
    for (const t of tasks) expect(filesFrom(skills, t)).toHaveLength(1)

    // with a model: one task reflected again into an update of its own SKILL.md folder
    const task = tasks[0]!
    const own = filesFrom(skills, task)
    server = await startOpenAiServer(() => ({ json: chatCompletion('Health endpoint\n\n## Steps\n- Add GET /health\n- Run pnpm test\n\nUSAGE_CONDITIONS: when adding a health check', [], 'again-model') }))
    const model = ['--llm', 'openai', '--base-url', server.url, '--model', 'again-model']
    const withModel = await json<Summary>(['reflect', ...source, '--force', '--task', task, ...model])
    expect(withModel.created).toEqual([])
    expect(withModel.skipped.map((s) => [s.taskDir, s.messageCode])).toEqual([[task, 'reflect.again_proposed']])
    const id = withModel.proposals![0]!
    expect(skillFiles(skills)).toEqual(files)
    const accepted = await cli(['accept', id, '--library', skills])
    expect(accepted.code, accepted.stderr).toBe(0)
    expect(skillFiles(skills)).toEqual(files)
    expect(filesFrom(skills, task)).toEqual(own)
    const after = fs.readFileSync(path.join(skills, own[0]!), 'utf8')
    expect(after).toContain('- Add GET /health')
    // a SKILL.md keeps its name (its folder)
    expect(after).toContain(`name: ${path.dirname(own[0]!)}`)

    await noMergeOfTask(['--library', skills], skills, task)
  }, 90_000)
})
