import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import type {
  ApiEvent,
  DataRootInfo,
  JobInfo,
  LibraryInfo,
  LogChunk,
  OverviewResult,
  PublicSettings,
  RateResult,
  ReflectSummary,
  SkillDocument,
  SkillListResult,
  TaskListResult
} from '../../src/shared/api'
import type { QueryResult } from '../../src/shared/types'
import { benchesDisposedAfterEach, tempDir, waitForEvent, type TestBench } from './helpers'

const bench = benchesDisposedAfterEach()

async function aliceLibrary(b: TestBench): Promise<string> {
  const libs = await b.call<LibraryInfo[]>('libraries.list')
  const alice = libs.find((l) => l.user === 'alice')
  expect(alice).toBeDefined()
  return alice!.path
}

async function expectError(p: Promise<unknown>, code: string, text?: RegExp): Promise<void> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e
  )) as { code?: string; message?: string } | undefined
  expect(err, 'expected the call to fail').toBeDefined()
  expect(err!.code).toBe(code)
  if (text) {
    expect(err!.message).toMatch(text)
  }
}

describe('workbench: roots, libraries, settings', () => {
  it('lists the root with its users and one library per user', async () => {
    const b = await bench()
    const roots = await b.call<DataRootInfo[]>('roots.list')
    expect(roots).toEqual([{ path: b.root, exists: true, users: ['alice', 'bob'], taskCount: 5, remembered: false, thisRunOnly: true }])
    const libs = await b.call<LibraryInfo[]>('libraries.list')
    expect(libs.map((l) => [l.user, l.origin, l.exists])).toEqual([
      ['alice', 'root', true],
      ['bob', 'root', true]
    ])
    expect(libs[0]!.path).toBe(path.join(b.root, 'alice', 'general', 'experience'))
  })

  it('remembers roots, opened folders and settings across restarts', async () => {
    const settingsDir = tempDir('settings')
    const b1 = await bench({}, undefined, settingsDir)
    // a root given on the command line is for that run only: remembering it is the user's choice
    await b1.call('roots.add', { path: b1.root })
    const opened = tempDir('skills-md')
    await b1.call('libraries.open', { path: opened })
    await b1.call('settings.update', { patch: { thresholds: { merge: 0.8 }, language: 'zh' } })
    await b1.wb.dispose()
    const b2 = await bench({ initialRoots: [] }, undefined, settingsDir)
    const s = await b2.call<PublicSettings>('settings.get')
    expect(s.dataRoots).toEqual([b1.root])
    expect(s.thresholds).toEqual({ merge: 0.8, eps: 0.5, minSamples: 2, cleanupDays: 30 })
    expect(s.language).toBe('zh')
    const libs = await b2.call<LibraryInfo[]>('libraries.list')
    expect(libs.some((l) => l.origin === 'opened' && l.path === fs.realpathSync(opened))).toBe(true)
  })

  it('refuses unknown roots, libraries and missing folders with bad_request', async () => {
    const b = await bench()
    await expectError(b.call('skills.list', { library: '/etc' }), 'bad_request', /unknown library/)
    await expectError(b.call('tasks.list', { root: '/tmp' }), 'bad_request', /unknown data root/)
    await expectError(b.call('roots.add', { path: '/definitely/not/here' }), 'bad_request', /not found/)
    await expectError(b.call('roots.add', { path: 'relative/dir' }), 'bad_request', /absolute/)
  })

  it('answers schema-invalid input with a message naming the field', async () => {
    const b = await bench()
    await expectError(b.call('skills.rate', { library: 'x', skillId: '1', rating: 3 }), 'bad_request', /rating/)
    await expectError(b.call('no.such', {}), 'not_found', /unknown method/)
  })

  it('keeps the API key out of settings and API answers (web mode: 0600 secrets file only)', async () => {
    const b = await bench()
    const key = 'sk-proj-SECRETkey0123456789abcd'
    const outputs: unknown[] = []
    outputs.push(await b.call('settings.setApiKey', { apiKey: key }))
    const s = await b.call<PublicSettings>('settings.get')
    outputs.push(s)
    expect(s.llm.hasApiKey).toBe(true)
    expect(s.llm.apiKeyHint).toBe('sk-…abcd')
    expect(s.llm.keyStorage).toBe('file-0600')
    outputs.push(await b.call('settings.update', { patch: { llm: { model: 'm2' } } }))
    outputs.push(await b.call('app.info'))
    outputs.push(await b.call('libraries.list'))
    outputs.push(b.events)
    for (const out of outputs) {
      expect(JSON.stringify(out)).not.toContain(key)
    }
    const hits: string[] = []
    for (const name of fs.readdirSync(b.settingsDir)) {
      if (fs.readFileSync(path.join(b.settingsDir, name), 'utf8').includes(key)) {
        hits.push(name)
      }
    }
    expect(hits).toEqual(['secrets.json'])
    expect(fs.statSync(path.join(b.settingsDir, 'secrets.json')).mode & 0o777).toBe(0o600)
    // forgetting the key removes it from disk
    await b.call('settings.setApiKey', { apiKey: null })
    expect(fs.readFileSync(path.join(b.settingsDir, 'secrets.json'), 'utf8')).not.toContain(key)
    expect((await b.call<PublicSettings>('settings.get')).llm.hasApiKey).toBe(false)
  })
})

describe('workbench: skills', () => {
  it('lists summaries without bodies, gets the document, saves with conflict detection', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const list = await b.call<SkillListResult>('skills.list', { library })
    expect(list.skills.length).toBe(4)
    expect(list.skills.every((s) => !('body' in s) && s.bodyChars > 0 && s.preview.length > 0)).toBe(true)
    const first = list.skills[0]!
    const doc = await b.call<SkillDocument>('skills.get', { library, skillId: first.skill_id })
    expect(doc.text).toBe(fs.readFileSync(path.join(library, first.path), 'utf8'))
    const edited = doc.text + '\nOne more line.\n'
    const saved = await b.call<SkillDocument>('skills.save', { library, skillId: first.skill_id, text: edited, baseHash: doc.skill.hash })
    expect(saved.text).toBe(edited)
    expect(fs.readFileSync(path.join(library, first.path), 'utf8')).toBe(edited)
    // the old hash is stale now: refused, file unchanged
    await expectError(b.call('skills.save', { library, skillId: first.skill_id, text: doc.text + '\nother\n', baseHash: doc.skill.hash }), 'conflict')
    expect(fs.readFileSync(path.join(library, first.path), 'utf8')).toBe(edited)
    // unparsable text is refused before writing
    await expectError(
      b.call('skills.save', { library, skillId: first.skill_id, text: '---\nskill_id: [unclosed\n---\nbody', baseHash: saved.skill.hash }),
      'bad_request',
      /not saved/
    )
    expect(fs.readFileSync(path.join(library, first.path), 'utf8')).toBe(edited)
    // a changed skill_id is refused by code, the reason a coded param (the app words both)
    const moved = await b.wb.dispatch('skills.save', { library, skillId: first.skill_id, text: edited.replace(`skill_id: '${first.skill_id}'`, "skill_id: '42'"), baseHash: saved.skill.hash })
    expect(moved.ok ? null : moved.error).toMatchObject({ code: 'bad_request', messageCode: 'skill.not_saved', params: { reason: { messageCode: 'skill.id_fixed', params: { id: first.skill_id } } } })
  })

  it('a save after agents\' uses were folded into the file keeps the uses and saves the edit (only a real edit conflicts)', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const first = (await b.call<SkillListResult>('skills.list', { library })).skills[0]!
    const doc = await b.call<SkillDocument>('skills.get', { library, skillId: first.skill_id })
    // Meanwhile agents query the skill and the uses are folded into its file (another process).
    const other = await openLibrary(library)
    for (let i = 0; i < 3; i++) await other.recordUse([first.skill_id])
    await other.foldUsage()
    expect(fs.readFileSync(path.join(library, first.path), 'utf8')).not.toBe(doc.text)
    const edited = doc.text + '\nAn edit made while agents used it.\n'
    const saved = await b.call<SkillDocument>('skills.save', { library, skillId: first.skill_id, text: edited, baseHash: doc.skill.hash, baseText: doc.text })
    expect(saved.text).toContain('An edit made while agents used it.')
    expect(saved.skill.fetch_count).toBe(first.fetch_count + 3)
    // A real edit by someone else since: still a conflict, and the file keeps their edit.
    const theirs = saved.text.replace('An edit made while agents used it.', 'Their own change.')
    fs.writeFileSync(path.join(library, first.path), theirs)
    await expectError(b.call('skills.save', { library, skillId: first.skill_id, text: saved.text + '\nmine\n', baseHash: saved.skill.hash, baseText: saved.text }), 'conflict')
    expect(fs.readFileSync(path.join(library, first.path), 'utf8')).toBe(theirs)
  })

  it('rates (0.7·old + 0.3·rating), deletes to legacy and restores', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const skill = (await b.call<SkillListResult>('skills.list', { library })).skills[0]!
    const rated = await b.call<RateResult>('skills.rate', { library, skillId: skill.skill_id, rating: 1 })
    expect(rated.before).toBe(skill.quality_index)
    expect(rated.after).toBeCloseTo(0.7 * skill.quality_index + 0.3, 3)
    const moved = await b.call<{ from: string; to: string }>('skills.delete', { library, skillId: skill.skill_id })
    expect(moved.to.startsWith('legacy/')).toBe(true)
    expect(fs.existsSync(path.join(library, moved.to))).toBe(true)
    const active = await b.call<SkillListResult>('skills.list', { library })
    expect(active.skills.some((s) => s.skill_id === skill.skill_id)).toBe(false)
    const withLegacy = await b.call<SkillListResult>('skills.list', { library, includeLegacy: true })
    expect(withLegacy.skills.find((s) => s.skill_id === skill.skill_id)?.legacy).toBe(true)
    const restored = await b.call<SkillDocument>('skills.restore', { library, skillId: skill.skill_id })
    expect(restored.skill.legacy).toBe(false)
  })

  it('searches with query_skill ranking without touching fetch_count', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const before = await b.call<SkillListResult>('skills.list', { library })
    const result = await b.call<QueryResult>('skills.query', { library, text: 'python calculator', top: 2 })
    expect(result.status).toBe('success')
    expect(result.skills[0]!.title.toLowerCase()).toContain('calculator')
    const after = await b.call<SkillListResult>('skills.list', { library })
    expect(after.skills.map((s) => s.fetch_count)).toEqual(before.skills.map((s) => s.fetch_count))
  })
})

describe('workbench: tasks, logs, reflection jobs, overview', () => {
  it('lists tasks newest first with reflected flags and reads log windows inside the root only', async () => {
    const b = await bench()
    const tasks = await b.call<TaskListResult>('tasks.list', { root: b.root })
    expect(tasks.tasks.length).toBe(5)
    const mtimes = tasks.tasks.map((t) => t.mtime)
    expect([...mtimes].sort((x, y) => y - x)).toEqual(mtimes)
    for (const t of tasks.tasks) {
      expect(t.reflected).toBe(t.skills.length > 0)
    }
    const task = tasks.tasks.find((t) => t.taskDir === 'output_20261104_160000')!
    const chunk = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task.path, maxBytes: 100 })
    expect(chunk.files[0]).toBe('manager.out')
    expect(chunk.files).toContain('agent_001.out')
    expect(chunk.start).toBe(0)
    expect(chunk.end).toBeLessThanOrEqual(100)
    const whole = fs.readFileSync(path.join(task.path, 'logs', 'manager.out'))
    expect(Buffer.from(chunk.text)).toEqual(whole.subarray(0, chunk.end))
    const next = await b.call<LogChunk>('tasks.readLog', { root: b.root, taskPath: task.path, start: chunk.end, maxBytes: 1_000_000 })
    expect(Buffer.from(chunk.text + next.text)).toEqual(whole)
    await expectError(b.call('tasks.readLog', { root: b.root, taskPath: task.path, file: '../../../etc/passwd' }), 'bad_request')
    await expectError(b.call('tasks.readLog', { root: b.root, taskPath: '/etc' }), 'path_escape')
    await expectError(b.call('tasks.readLog', { root: b.root, taskPath: path.join(b.root, 'alice', 'general') }), 'bad_request', /not a task/)
  })

  it('runs reflection as a job: progress to 100 %, job.done with the created skills, nothing new the second time', async () => {
    const b = await bench()
    const job = await b.call<JobInfo>('reflect.start', { root: b.root })
    expect(job.state).toBe('running')
    await b.wb.waitForJob(job.jobId)
    const done = (await waitForEvent(b.events, (e) => e.type === 'job.done' && e.jobId === job.jobId)) as Extract<ApiEvent, { type: 'job.done' }>
    expect(done.state).toBe('done')
    const summary = done.result as ReflectSummary
    const progress = b.events.filter((e): e is Extract<ApiEvent, { type: 'job.progress' }> => e.type === 'job.progress')
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.every((p) => p.progress.jobId === job.jobId && p.progress.fraction >= 0 && p.progress.fraction <= 1)).toBe(true)
    expect(progress[progress.length - 1]!.progress.fraction).toBe(1)
    const tasks = await b.call<TaskListResult>('tasks.list', { root: b.root })
    for (const created of summary.created) {
      expect(tasks.tasks.find((t) => t.taskDir === created.taskDir)?.reflected).toBe(true)
      expect(fs.existsSync(path.resolve(created.library, created.path))).toBe(true)
    }
    const jobs = await b.call<JobInfo[]>('jobs.list')
    expect(jobs.find((j) => j.jobId === job.jobId)?.state).toBe('done')
    b.events.length = 0
    const again = await b.call<JobInfo>('reflect.start', { root: b.root })
    await b.wb.waitForJob(again.jobId)
    const second = (await waitForEvent(b.events, (e) => e.type === 'job.done')) as Extract<ApiEvent, { type: 'job.done' }>
    expect((second.result as ReflectSummary).created).toEqual([])
  })

  it('cancels a running job', async () => {
    const b = await bench()
    const job = await b.call<JobInfo>('reflect.start', { root: b.root, force: true })
    const cancelled = await b.call<JobInfo>('jobs.cancel', { jobId: job.jobId })
    expect(cancelled.jobId).toBe(job.jobId)
    await b.wb.waitForJob(job.jobId)
    const done = (await waitForEvent(b.events, (e) => e.type === 'job.done')) as Extract<ApiEvent, { type: 'job.done' }>
    expect(done.state).toBe('cancelled')
    await expectError(b.call('jobs.cancel', { jobId: 'nope' }), 'not_found')
  })

  it('refuses reflecting tasks that are not in the root', async () => {
    const b = await bench()
    await expectError(b.call('reflect.start', { root: b.root, tasks: ['/etc/output_x'] }), 'bad_request', /not a task/)
    await expectError(b.call('reflect.start', { root: b.root, user: 'mallory' }), 'bad_request', /unknown user/)
  })

  it('computes the overview: counts, histogram, recent activity and the similarity graph', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const o = await b.call<OverviewResult>('overview.get', { library })
    expect(o.skills).toBe(4)
    expect(o.legacy).toBe(0)
    expect(o.qualityHistogram.length).toBe(10)
    expect(o.qualityHistogram.reduce((x, y) => x + y, 0)).toBe(4)
    expect(o.tasks).toBe(4)
    expect(o.graph.nodes.length).toBe(4)
    expect(o.recent.length).toBeGreaterThan(0)
    const dates = o.recent.map((r) => Date.parse(r.at))
    expect([...dates].sort((x, y) => y - x)).toEqual(dates)
    // the two calculator skills are near-duplicates: an edge between them, same cluster
    const calc = o.graph.nodes.filter((n) => /calc/i.test(n.title))
    expect(calc.length).toBe(2)
    const edge = o.graph.edges.find((e) => [e.source, e.target].sort().join() === calc.map((c) => c.id).sort().join())
    expect(edge).toBeDefined()
  })
})

describe('workbench: curation', () => {
  it('computes a plan as a job, accepts an edited merge, journals it and undoes it', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const empty = await b.call<{ proposals: unknown[]; computedAt: string | null }>('curate.plan', { library })
    expect(empty).toMatchObject({ proposals: [], computedAt: null })
    const before = new Map(fs.readdirSync(library).filter((n) => n.endsWith('.md')).map((n) => [n, fs.readFileSync(path.join(library, n), 'utf8')]))

    const job = await b.call<JobInfo>('curate.start', { library })
    await b.wb.waitForJob(job.jobId)
    const done = (await waitForEvent(b.events, (e) => e.type === 'job.done' && e.jobId === job.jobId)) as Extract<ApiEvent, { type: 'job.done' }>
    expect(done.state).toBe('done')
    const plan = await b.call<{ proposals: { id: string; kind: string; status?: string; changes: { path: string; before: string | null; after: string | null }[] }[]; computedAt: string | null; library: string }>(
      'curate.plan',
      { library }
    )
    expect(plan.computedAt).not.toBeNull()
    expect(plan.library).toBe(library)
    const merge = plan.proposals.find((p) => p.kind === 'merge')
    expect(merge, 'the two calculator skills make a merge proposal').toBeDefined()
    expect(merge!.status).toBe('pending')
    const waiting = (await b.call<{ pendingProposals: number }>('overview.get', { library })).pendingProposals
    expect(waiting).toBe(plan.proposals.filter((p) => (p.status ?? 'pending') === 'pending').length)

    // edit-then-accept: the user's version of the merged file is what lands on disk
    const primary = merge!.changes.find((c) => c.after !== null && c.before !== null)!
    const editedText = primary.after!.replace(/\n*$/, '\n\nEdited in the diff view.\n')
    const entry = await b.call<{ id: string; proposal_id: string; changes: unknown[] }>('curate.accept', {
      library,
      proposalId: merge!.id,
      edited: [{ path: primary.path, before: primary.before, after: editedText }]
    })
    expect(entry.proposal_id).toBe(merge!.id)
    expect(fs.readFileSync(path.join(library, primary.path), 'utf8')).toBe(editedText)
    const legacy = fs.readdirSync(path.join(library, 'legacy'))
    expect(legacy.length).toBeGreaterThan(0)

    const journal = await b.call<{ id: string; undone_at?: string }[]>('curate.journal', { library })
    expect(journal[0]!.id).toBe(entry.id)
    expect(journal[0]!.undone_at).toBeUndefined()
    await expectError(b.call('curate.accept', { library, proposalId: merge!.id }), 'invalid', /already applied/)

    const undone = await b.call<{ id: string; undone_at?: string }>('curate.undo', { library, entryId: entry.id })
    expect(undone.id).toBe(entry.id)
    expect(undone.undone_at).toBeTruthy()
    const after = new Map(fs.readdirSync(library).filter((n) => n.endsWith('.md')).map((n) => [n, fs.readFileSync(path.join(library, n), 'utf8')]))
    expect(after).toEqual(before)
    expect((await b.call<{ undone_at?: string }[]>('curate.journal', { library }))[0]!.undone_at).toBeTruthy()
    // undone, the merge is back in the plan to review again: the Overview counts it as waiting, as before the accept
    const back = await b.call<{ proposals: { id: string; status?: string }[] }>('curate.plan', { library })
    expect(back.proposals.find((p) => p.id === merge!.id)!.status).toBe('undone')
    expect((await b.call<{ pendingProposals: number }>('overview.get', { library })).pendingProposals).toBe(waiting)
  })

  it('rejects edits that touch files outside the proposal, and rejects proposals', async () => {
    const b = await bench()
    const library = await aliceLibrary(b)
    const job = await b.call<JobInfo>('curate.start', { library })
    await b.wb.waitForJob(job.jobId)
    const plan = await b.call<{ proposals: { id: string; status?: string }[] }>('curate.plan', { library })
    const id = plan.proposals[0]!.id
    await expectError(
      b.call('curate.accept', { library, proposalId: id, edited: [{ path: '../../outside.md', before: null, after: 'x' }] }),
      'bad_request',
      /does not change/
    )
    const rejected = await b.call<{ status?: string }>('curate.reject', { library, proposalId: id })
    expect(rejected.status).toBe('rejected')
    expect((await b.call<{ proposals: { id: string; status?: string }[] }>('curate.plan', { library })).proposals[0]!.status).toBe('rejected')
  })
})
