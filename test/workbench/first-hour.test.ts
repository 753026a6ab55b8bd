/**
 * The first hour of use (issue 12), on the workbench core: where the app opens, which roots are remembered,
 * what an empty or unusual root is told, labels that tell folders apart, unreadable skill files opened with
 * their error's position, the connection test's verdicts, line-aware log windows and search, per-source targets.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  AppInfo,
  DataRootInfo,
  LibraryInfo,
  LlmTestResult,
  LogChunk,
  LogSearchResult,
  OverviewResult,
  PublicSettings,
  SessionSourceInfo,
  SkillFileText,
  TaskListResult
} from '../../src/shared/api'
import { distinctLabels } from '../../src/main/workbench/libraries'
import { locateSkillProblem } from '../../src/shared/problem-position'
import { translateLine, translateText } from '../../src/renderer/i18n/messages-errors'
import { chatCompletion, startOpenAiServer } from '../helpers/openai-server'
import { benchesDisposedAfterEach, copySampleRoot, failure, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()

describe('where the app opens', () => {
  it('a command-line root is listed first, named as the start root, and not written to the settings file', async () => {
    const settingsDir = tempDir('settings')
    const remembered = copySampleRoot()
    const first = await bench({ initialRoots: [] }, undefined, settingsDir)
    await first.call('roots.add', { path: remembered })
    await first.wb.dispose()

    const b = await bench({}, undefined, settingsDir)
    const info = await b.call<AppInfo>('app.info')
    expect(info.startRoot).toBe(b.root)
    expect(info.runId).toMatch(/^[0-9a-f]{16}$/)
    const roots = await b.call<DataRootInfo[]>('roots.list')
    expect(roots.map((r) => [r.path, r.remembered, r.thisRunOnly])).toEqual([
      [b.root, false, true],
      [fs.realpathSync(remembered), true, false]
    ])
    const libraries = await b.call<LibraryInfo[]>('libraries.list')
    expect(libraries[0]!.root).toBe(b.root)
    const saved = JSON.parse(fs.readFileSync(path.join(settingsDir, 'settings.json'), 'utf8')) as { settings: { dataRoots: string[] } }
    expect(saved.settings.dataRoots).toEqual([fs.realpathSync(remembered)])

    // remembering it is one click; forgetting a remembered one keeps this run's copy listed until the end
    await b.call('roots.add', { path: b.root })
    expect((await b.call<DataRootInfo[]>('roots.list')).find((r) => r.path === b.root)).toMatchObject({ remembered: true, thisRunOnly: false })
    await b.call('roots.remove', { path: b.root })
    expect((await b.call<DataRootInfo[]>('roots.list')).find((r) => r.path === b.root)).toMatchObject({ remembered: false, thisRunOnly: true })
    await b.call('roots.remove', { path: fs.realpathSync(remembered) })
    expect((await b.call<PublicSettings>('settings.get')).dataRoots).toEqual([])
    await b.wb.dispose()

    const next = await bench({ initialRoots: [] }, undefined, settingsDir)
    expect(await next.call<DataRootInfo[]>('roots.list')).toEqual([])
    expect((await next.call<AppInfo>('app.info')).startRoot).toBeUndefined()
  })

  it('labels opened folders so two folders named "skills" differ', async () => {
    expect(distinctLabels(['/home/a/.claude/skills', '/home/a/.codex/skills', '/srv/tools'])).toEqual(['skills · .claude', 'skills · .codex', 'tools'])
    expect(distinctLabels(['/x/data/alice/general/experience'])).toEqual(['alice'])
    expect(distinctLabels(['/p/q/skills'], ['skills'])).toEqual(['skills · q'])

    const b = await bench()
    const base = tempDir('labels')
    for (const agent of ['.claude', '.codex']) fs.mkdirSync(path.join(base, agent, 'skills'), { recursive: true })
    await b.call('libraries.open', { path: path.join(base, '.claude', 'skills') })
    const libs = await b.call<LibraryInfo[]>('libraries.open', { path: path.join(base, '.codex', 'skills') })
    expect(libs.filter((l) => l.origin === 'opened').map((l) => l.label)).toEqual(['skills · .claude', 'skills · .codex'])
  })
})

describe('what an empty or unusual root is told', () => {
  it('names the problem: empty, a library, one task folder, a sessions folder, no tasks in the layout', async () => {
    const b = await bench()
    const problemOf = async (dir: string): Promise<DataRootInfo['problem']> =>
      (await b.call<DataRootInfo[]>('roots.add', { path: dir })).find((r) => r.path === fs.realpathSync(dir))!.problem

    const empty = tempDir('empty')
    expect(await problemOf(empty)).toBe('empty')

    const library = tempDir('lib')
    fs.writeFileSync(path.join(library, 'skill_x.md'), '---\nskill_id: "1"\ntitle: x\n---\n')
    expect(await problemOf(library)).toBe('library')

    // a folder of downloaded skill repositories: skills at a repository's top or under its skills/ folder
    const collections = tempDir('collections')
    const skillMd = (dir: string): void => {
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${path.basename(dir)}\ndescription: d\n---\nbody\n`)
    }
    fs.mkdirSync(path.join(collections, 'acme_skills', '.git'), { recursive: true })
    skillMd(path.join(collections, 'acme_skills', 'skills', 'pdf-tools'))
    skillMd(path.join(collections, 'acme_skills', 'skills', 'brainstorming'))
    skillMd(path.join(collections, 'team-skills', 'canvas-design'))
    expect(await problemOf(collections)).toBe('library')
    // and its one-click fix opens every skill of it
    await b.call('libraries.open', { path: fs.realpathSync(collections) })
    const listed = await b.call<{ skills: { title: string }[] }>('skills.list', { library: fs.realpathSync(collections) })
    expect(listed.skills.map((s) => s.title).sort()).toEqual(['brainstorming', 'canvas-design', 'pdf-tools'])

    const task = path.join(tempDir('task'), 'output_20260101_120000')
    fs.mkdirSync(path.join(task, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(task, 'logs', 'manager.out'), 'Received user requirement: hi\n')
    expect(await problemOf(task)).toBe('task-folder')

    const sessions = tempDir('sessions')
    fs.mkdirSync(path.join(sessions, '-home-me-project'))
    fs.writeFileSync(path.join(sessions, '-home-me-project', 'abc.jsonl'), '{}\n')
    expect(await problemOf(sessions)).toBe('sessions')

    const other = tempDir('other')
    fs.mkdirSync(path.join(other, 'photos'))
    expect(await problemOf(other)).toBe('no-tasks')

    const usersOnly = tempDir('users')
    fs.mkdirSync(path.join(usersOnly, 'carol', 'general', 'experience'), { recursive: true })
    expect(await problemOf(usersOnly)).toBe('no-tasks')

    expect((await b.call<DataRootInfo[]>('roots.list')).find((r) => r.path === b.root)!.problem).toBeUndefined()
  })

  it('counts the tasks of a user who has no skill library yet', async () => {
    const root = copySampleRoot()
    fs.rmSync(path.join(root, 'bob', 'general'), { recursive: true })
    const b = await bench({}, root)
    const bob = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'bob')!
    expect(bob.exists).toBe(false)
    const overview = await b.call<OverviewResult>('overview.get', { library: bob.path })
    expect(overview).toMatchObject({ skills: 0, tasks: 1, reflectedTasks: 0, planComputed: false, errorFiles: [] })
  })

  it('gives task times from the task folder name, not from file times', async () => {
    const b = await bench()
    const now = Date.now()
    for (const dir of fs.readdirSync(path.join(b.root, 'alice'))) {
      if (dir.startsWith('output_')) fs.utimesSync(path.join(b.root, 'alice', dir), new Date(now), new Date(now))
    }
    const listed = await b.call<TaskListResult>('tasks.list', { root: b.root })
    const task = listed.tasks.find((t) => t.taskDir === 'output_20261102_141500')!
    expect(task.startedAt).toBe(new Date(2026, 10, 2, 14, 15, 0).getTime())
  })
})

describe('fixing an unreadable skill file where it is', () => {
  it('opens the broken file as text with the YAML error on its line and column, and saving a fix makes it a skill', async () => {
    const b = await bench()
    const lib = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    const broken = '---\nskill_id: "1790000000"\ntitle: [unclosed\nquality_index: 0.5\n---\n\nBody.\n'
    fs.writeFileSync(path.join(lib, 'skill_broken.md'), broken)
    const overview = await b.call<OverviewResult>('overview.get', { library: lib })
    expect(overview.errorFiles.map((e) => e.path)).toEqual(['skill_broken.md'])

    const file = await b.call<SkillFileText>('skills.readFile', { library: lib, path: 'skill_broken.md' })
    expect(file.text).toBe(broken)
    expect(file.problem?.reason).toMatch(/YAML/)
    // by code too (issue 40): the editor words it in Chinese without reading the English back
    expect(file.problem?.messageCode).toBe('parse.yaml')
    expect(translateLine(file.problem, 'unused words', 'zh')).toBe('YAML 无效：第 3 行第 8 列开始的 [ 一直没有闭合')
    // an unclosed [ is said as the bracket it is (the parser calls it bad indentation where the next key starts),
    // where it opened, and that place is the one the editor marks
    expect(file.problem?.reason).toBe('invalid YAML: a [ opened at line 3, column 8 is never closed')
    expect(file.problem?.params?.problem).toEqual({ messageCode: 'yaml.unclosed_bracket', params: { bracket: '[', line: 3, column: 8 } })
    expect({ line: file.problem?.line, column: file.problem?.column }).toEqual({ line: 3, column: 8 })
    expect(locateSkillProblem(broken)).toEqual({ line: 3, column: 8 })

    const stillBroken = await failure(b.call('skills.saveFile', { library: lib, path: 'skill_broken.md', text: broken.replace('Body', 'Other'), baseHash: file.hash }))
    expect(stillBroken.code).toBe('bad_request')
    expect(fs.readFileSync(path.join(lib, 'skill_broken.md'), 'utf8')).toBe(broken)

    const fixed = await b.call<SkillFileText>('skills.saveFile', { library: lib, path: 'skill_broken.md', text: broken.replace('[unclosed', 'Fixed title'), baseHash: file.hash })
    expect(fixed.problem).toBeNull()
    expect(fixed.skillId).toBe('1790000000')
    expect((await failure(b.call('skills.readFile', { library: lib, path: '.skillbench/plan.json' }))).code).toBe('bad_request')
  })

  it('locates the other problems a file can have', () => {
    expect(locateSkillProblem('no front matter')).toEqual({ line: 1, column: 1 })
    expect(locateSkillProblem('---\na: 1\nb: *ref\n---\n')).toEqual({ line: 3, column: 4 })
    expect(locateSkillProblem('---\na: 1\na: 2\n---\n')!.line).toBe(3)
    expect(locateSkillProblem('---\ntitle: fine\n---\n')).toBeNull()
  })
})

describe('the connection test', () => {
  it('tests values before they are saved and names each cause', async () => {
    const model = await startOpenAiServer(() => ({ json: chatCompletion('OK') }))
    const refusing = await new Promise<number>((resolve) => {
      const s = http.createServer()
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port
        s.close(() => resolve(port))
      })
    })
    const plain = http.createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"error":{"message":"invalid key"}}')
    })
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()))
    const plainPort = (plain.address() as AddressInfo).port
    try {
      const b = await bench()
      const test = (baseUrl: string): Promise<LlmTestResult> => b.call<LlmTestResult>('llm.test', { baseUrl, model: 'test-model' })
      expect(await test(model.url)).toMatchObject({ ok: true })
      expect((await b.call<PublicSettings>('settings.get')).llm.baseUrl).toBe('https://api.openai.com/v1')
      expect((await test('not a url')).problem).toBe('bad_url')
      expect((await test('ftp://example.com/v1')).problem).toBe('bad_url')
      expect((await test(`http://127.0.0.1:${refusing}/v1`)).problem).toBe('refused')
      expect((await test('http://127.0.0.1:1/v1')).problem).toBe('bad_port') // a port fetch refuses to use
      expect((await test('http://no-such-host.invalid/v1')).problem).toBe('unknown_host')
      expect((await test(`https://127.0.0.1:${plainPort}/v1`)).problem).toBe('tls')
      expect((await test(`http://127.0.0.1:${plainPort}/v1`)).problem).toBe('auth')
    } finally {
      await model.close()
      plain.close()
    }
  })

  it('refuses to save a base URL that is not an http(s) URL', async () => {
    const b = await bench()
    const err = await failure(b.call('settings.update', { patch: { llm: { baseUrl: 'localhost:11434' } } }))
    expect(err.code).toBe('bad_request')
    expect(err.message).toMatch(/http:\/\/ or https:\/\//)
    expect((await b.call<PublicSettings>('settings.get')).llm.baseUrl).toBe('https://api.openai.com/v1')
    await b.call('settings.update', { patch: { llm: { baseUrl: 'http://localhost:11434/v1' } } })
  })

  it('refuses to save a base URL on a port the runtime blocks, saying why', async () => {
    const b = await bench()
    const err = await failure(b.call('settings.update', { patch: { llm: { baseUrl: 'http://127.0.0.1:9/v1' } } }))
    expect(err.code).toBe('bad_request')
    expect(err.message).toMatch(/port is blocked by the runtime/)
    expect((await b.call<PublicSettings>('settings.get')).llm.baseUrl).toBe('https://api.openai.com/v1')
  })
})

describe('big logs: whole-line windows with line numbers, search, jump', () => {
  function bigTask(root: string): string {
    const task = path.join(root, 'alice', 'output_20261201_080000')
    fs.mkdirSync(path.join(task, 'logs'), { recursive: true })
    const lines = ['Received user requirement: count to a lot']
    for (let i = 1; i <= 60_000; i++) lines.push(`line ${i} ${i % 7000 === 0 ? 'NEEDLE here' : 'filler text'} 日志`)
    fs.writeFileSync(path.join(task, 'logs', 'manager.out'), lines.join('\n') + '\n')
    return task
  }

  it('reads windows of whole lines anywhere in the file, knows their line numbers, and finds text', async () => {
    const root = copySampleRoot()
    const task = bigTask(root)
    const b = await bench({}, root)
    const first = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task, maxBytes: 4096 })
    expect(first.firstLine).toBe(1)
    expect(first.text.endsWith('\n')).toBe(true)
    const next = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task, start: first.end, maxBytes: 4096 })
    expect(next.start).toBe(first.end)
    expect(next.firstLine).toBe(first.firstLine + first.text.split('\n').length - 1)

    const end = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task, at: first.size - 1000, maxBytes: 4096 })
    expect(end.end).toBe(end.size)
    const lastLines = end.text.trimEnd().split('\n')
    expect(lastLines[lastLines.length - 1]).toBe('line 60000 filler text 日志')
    expect(end.firstLine + lastLines.length - 1).toBe(60_001)

    const atLine = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task, line: 30_001, maxBytes: 200 })
    expect(atLine.firstLine).toBe(30_001)
    expect(atLine.text.startsWith('line 30000 ')).toBe(true)

    const before = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task, at: atLine.start - 300, end: atLine.start })
    expect(before.end).toBe(atLine.start)
    expect(before.text.endsWith('\n')).toBe(true)

    const found = await b.call<LogSearchResult>('tasks.searchLog', { root: b.root, taskPath: task, query: 'needle' })
    expect(found.matches.map((m) => m.line)).toEqual([7001, 14001, 21001, 28001, 35001, 42001, 49001, 56001])
    const hit = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task, at: found.matches[2]!.offset + 3, maxBytes: 100 })
    expect(hit.firstLine).toBe(21_001)
    expect(hit.text.startsWith('line 21000 NEEDLE here')).toBe(true)
  })
})

describe('skills made from agent sessions go to the library chosen for that source', () => {
  it('remembers the chosen library per session folder across restarts', async () => {
    const settingsDir = tempDir('settings')
    const sessions = tempDir('claude')
    const b = await bench({}, undefined, settingsDir)
    await b.call('roots.add', { path: b.root })
    await b.call('sessions.add', { source: 'claude', path: sessions })
    const bob = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'bob')!.path
    const list = await b.call<SessionSourceInfo[]>('sessions.setTarget', { source: 'claude', dir: fs.realpathSync(sessions), library: bob })
    expect(list.find((s) => s.dir === fs.realpathSync(sessions))!.targetLibrary).toBe(bob)
    expect((await failure(b.call('sessions.setTarget', { source: 'claude', dir: fs.realpathSync(sessions), library: '/etc' }))).code).toBe('bad_request')
    await b.wb.dispose()
    const again = await bench({ initialRoots: [] }, undefined, settingsDir)
    expect((await again.call<SessionSourceInfo[]>('sessions.list')).find((s) => s.dir === fs.realpathSync(sessions))!.targetLibrary).toBe(bob)
  })
})

describe('server errors in Chinese', () => {
  it('every error a person can trigger from the app has a Chinese translation', async () => {
    const b = await bench()
    const lib = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    const skill = fs.readdirSync(lib).find((f) => f.startsWith('skill_'))!
    const raw = await b.call<SkillFileText>('skills.readFile', { library: lib, path: skill })
    const calls: [string, unknown][] = [
      ['tasks.list', { root: '/nowhere' }],
      ['skills.list', { library: '/nowhere' }],
      ['roots.add', { path: 'relative/dir' }],
      ['roots.add', { path: '/definitely/not/here' }],
      ['libraries.open', { path: '/definitely/not/here' }],
      ['skills.get', { library: lib, skillId: '99999' }],
      ['skills.saveFile', { library: lib, path: skill, text: 'no front matter', baseHash: raw.hash }],
      ['skills.saveFile', { library: lib, path: skill, text: raw.text, baseHash: 'stale' }],
      ['skills.readFile', { library: lib, path: 'notes.txt' }],
      ['tasks.readLog', { root: b.root, taskPath: path.join(b.root, 'alice', 'general') }],
      ['tasks.readLog', { root: b.root, taskPath: '/etc' }],
      ['curate.accept', { library: lib, proposalId: 'nope' }],
      ['curate.undo', { library: lib, entryId: 'nope' }],
      ['jobs.cancel', { jobId: 'nope' }],
      ['sessions.tasks', { source: 'claude', dir: '/nowhere' }],
      ['settings.update', { patch: { llm: { baseUrl: 'localhost:1234' } } }],
      ['skills.rate', { library: lib, skillId: '1', rating: 3 }]
    ]
    const messages: string[] = []
    for (const [method, input] of calls) {
      const answer = await b.wb.dispatch(method, input)
      expect(answer.ok, method).toBe(false)
      if (!answer.ok) messages.push(answer.error.message)
    }
    const untranslated = messages.filter((m) => !/[\u4e00-\u9fff]/.test(translateText(m, 'zh')))
    expect(untranslated).toEqual([])
  })
})

describe('the Overview map agrees with the curation plan', () => {
  it('draws every proposed merge as a likely duplicate and marks the skills curation leaves alone', async () => {
    const b = await bench()
    const lib = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    // edited by a person after it was made (no tool use explains the later update): protected
    const word = path.join(lib, 'skill_Convert a Word documen.md')
    fs.writeFileSync(word, fs.readFileSync(word, 'utf8').replace("updated_at: '2026-07-15T12:10:00'", "updated_at: '2026-08-01T09:00:00'"))
    const job = await b.call<{ jobId: string }>('curate.start', { library: lib })
    await b.wb.waitForJob(job.jobId)
    const plan = await b.call<{ proposals: { kind: string; members: { skill_id: string }[] }[]; protected: { skill_id: string; reason: string }[] }>('curate.plan', { library: lib })
    const overview = await b.call<OverviewResult>('overview.get', { library: lib })
    const threshold = (await b.call<PublicSettings>('settings.get')).thresholds.merge
    const merges = plan.proposals.filter((p) => p.kind === 'merge')
    expect(merges.length).toBeGreaterThan(0)
    for (const m of merges) {
      const [x, y] = m.members.map((s) => s.skill_id)
      const edge = overview.graph.edges.find((e) => (e.source === x && e.target === y) || (e.source === y && e.target === x))
      expect(edge?.similarity, `${x}~${y}`).toBeGreaterThan(threshold)
    }
    expect(plan.protected).toEqual([expect.objectContaining({ skill_id: '1785000000', reason: 'edited' })])
    expect(overview.graph.nodes.find((n) => n.id === '1785000000')!.protected).toBe('edited')
    expect(overview.graph.nodes.filter((n) => n.protected).map((n) => n.id)).toEqual(['1785000000'])
  })
})
