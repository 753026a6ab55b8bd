/**
 * `skillbench update` against local bare repositories: an upstream change becomes an `update` proposal with the
 * exact before/after (nothing changes until accepted); a skill also edited in the library is merged three ways
 * and never loses the local edit; accepting it moves the provenance on.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Proposal } from '../../src/shared/types'
import { acceptProposal } from '../../src/main/review/decisions'
import { loadPlan } from '../../src/main/review/plan'
import { installFromSource } from '../../src/main/sources/install'
import { provenanceOfText } from '../../src/main/sources/provenance'
import { updateFromSources } from '../../src/main/sources/update'
import { saveEdits } from '../../src/main/review/queue'
import { openLibrary } from '../../src/main/store/library'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let env: NodeJS.ProcessEnv
let repo: TestRepo
let lib: string

const BODY = '# PDF\n\nStep one: open the file.\n\nStep two: read the pages.\n\nStep three: close it.\n'
const PDF = skillMd('pdf', 'Work with PDF files.', BODY, 'license: MIT\n')

function read(rel: string): string {
  return fs.readFileSync(path.join(lib, rel), 'utf8')
}

async function pending(): Promise<Proposal[]> {
  return (await loadPlan(lib)).proposals.filter((p) => p.kind === 'update' && (p.status ?? 'pending') === 'pending')
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-update-')))
  env = { SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
})

beforeEach(async () => {
  repo?.cleanup()
  repo = makeRepo()
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  repo.commit({ 'skills/pdf/SKILL.md': PDF, 'skills/pdf/scripts/run.sh': { text: 'echo one\n', mode: 0o755 }, 'skills/pdf/references/old.md': 'old notes\n', 'skills/csv/SKILL.md': skillMd('csv', 'CSV.', 'x\n') })
  lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
  const r = await installFromSource({ library: lib, source: repo.url, cwd: tmp, env })
  expect(r.installed.length).toBe(2)
})

afterAll(() => {
  repo?.cleanup()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('update proposals', () => {
  it('an upstream change becomes an update proposal with the exact before/after; nothing changes until it is accepted', async () => {
    const installedText = read('pdf/SKILL.md')
    const from = provenanceOfText(installedText)!.commit
    const to = repo.commit({
      'skills/pdf/SKILL.md': PDF.replace('Step three: close it.', 'Step three: close it.\n\nStep four: check the text layer.'),
      'skills/pdf/scripts/run.sh': { text: 'echo two\n', mode: 0o755 },
      'skills/pdf/references/new.md': 'new notes\n',
      'skills/pdf/references/old.md': null
    })
    const before = fs.readdirSync(lib, { recursive: true }).sort()
    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.checked).toBe(2)
    expect(report.failed).toEqual([])
    expect(report.unchanged).toEqual([{ name: 'csv', path: 'csv/SKILL.md', commit: to, note: expect.stringContaining('without changing this skill'), messageCode: 'update.moved_unchanged', params: { commit: to.slice(0, 12) } }])
    expect(report.proposals).toEqual([{ id: expect.stringMatching(/^update-\d+-[0-9a-f]{12}$/), name: 'pdf', path: 'pdf/SKILL.md', from, to, local_edit: false, conflicts: 0, status: 'added' }])
    // nothing in the library changed (the plan is bookkeeping)
    expect(read('pdf/SKILL.md')).toBe(installedText)
    expect(fs.readdirSync(lib, { recursive: true }).filter((p) => !String(p).startsWith('.skillbench')).sort()).toEqual(before.filter((p) => !String(p).startsWith('.skillbench')))
    const [p] = await pending()
    expect(p!.kind).toBe('update')
    const byPath = Object.fromEntries(p!.changes.map((c) => [c.path, c]))
    expect(byPath['pdf/SKILL.md']!.before).toBe(installedText)
    const after = byPath['pdf/SKILL.md']!.after!
    expect(after).toContain('Step four: check the text layer.')
    expect(provenanceOfText(after)).toEqual({ repo: repo.url, ref: 'main', commit: to, path: 'skills/pdf' })
    expect(byPath['pdf/scripts/run.sh']).toEqual({ path: 'pdf/scripts/run.sh', before: 'echo one\n', after: 'echo two\n' })
    expect(byPath['pdf/references/new.md']).toEqual({ path: 'pdf/references/new.md', before: null, after: 'new notes\n' })
    // a file removed upstream moves to .skillbench/legacy/ (the library folder stays what agents load), never deleted
    expect(byPath['pdf/references/old.md']).toEqual({ path: 'pdf/references/old.md', before: 'old notes\n', after: null })
    expect(byPath['.skillbench/legacy/pdf/references/old.md']).toEqual({ path: '.skillbench/legacy/pdf/references/old.md', before: null, after: 'old notes\n' })
    expect(p!.evidence.upstream).toEqual({ before: PDF, after: expect.stringContaining('Step four') })

    await acceptProposal(fs.realpathSync(lib), p!.id, 'test')
    expect(read('pdf/SKILL.md')).toBe(after)
    expect(read('pdf/scripts/run.sh')).toBe('echo two\n')
    expect(read('pdf/references/new.md')).toBe('new notes\n')
    expect(read('.skillbench/legacy/pdf/references/old.md')).toBe('old notes\n')
    expect(fs.existsSync(path.join(lib, 'pdf/references/old.md'))).toBe(false)
    // up to date now: no new proposal
    const again = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(again.proposals).toEqual([])
    expect(again.unchanged.map((u) => u.name).sort()).toEqual(['csv', 'pdf'])
  })

  it('keeps the bookkeeping the library added (id, counters) when the skill was not edited here', async () => {
    const library = await openLibrary(lib)
    const skill = (await library.list()).skills.find((s) => s.path === 'pdf/SKILL.md')!
    await library.update(skill.skill_id, { meta: { quality_index: 0.9, fetch_count: 7 } })
    repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Step one', 'Step 1') })
    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.proposals[0]!.local_edit).toBe(false)
    const after = (await pending())[0]!.changes[0]!.after!
    expect(after).toContain('Step 1: open the file.')
    expect(after).toMatch(/quality_index: 0\.9/)
    expect(after).toMatch(/fetch_count: 7/)
    expect(after).toContain(`skill_id: '${skill.skill_id}'`)
  })

  it('a local edit and an upstream edit in different places: both kept, no markers', async () => {
    fs.writeFileSync(path.join(lib, 'pdf/SKILL.md'), read('pdf/SKILL.md').replace('Step one: open the file.', 'Step one: open the file read-only.'))
    const to = repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Step three: close it.', 'Step three: close it and free the memory.') })
    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.proposals).toEqual([expect.objectContaining({ local_edit: true, conflicts: 0, to })])
    const p = (await pending())[0]!
    const after = p.changes[0]!.after!
    expect(after).toContain('Step one: open the file read-only.')
    expect(after).toContain('Step three: close it and free the memory.')
    expect(after).not.toContain('<<<<<<<')
    expect(p.reason).toContain('You edited it here too: your edits are kept')
  })

  it('a local edit and an upstream edit of the same line: both kept between markers, never dropped', async () => {
    fs.writeFileSync(path.join(lib, 'pdf/SKILL.md'), read('pdf/SKILL.md').replace('Step two: read the pages.', 'Step two: read only the first page.'))
    repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Step two: read the pages.', 'Step two: read the pages in parallel.') })
    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.proposals[0]).toEqual(expect.objectContaining({ local_edit: true, conflicts: 1 }))
    const after = (await pending())[0]!.changes[0]!.after!
    expect(after).toContain(`<<<<<<< library (your version)\nStep two: read only the first page.\n=======\nStep two: read the pages in parallel.\n>>>>>>> upstream ${report.proposals[0]!.to.slice(0, 12)}\n`)
    expect(after).toContain('Step one: open the file.')
    // accepting with the markers still in is refused; once the person chose, it applies
    const root = fs.realpathSync(lib)
    const id = report.proposals[0]!.id
    const before = read('pdf/SKILL.md')
    await expect(acceptProposal(root, id, 'test')).rejects.toThrow(/still marks places changed on both sides .* in pdf\/SKILL\.md: edit the result/)
    expect(read('pdf/SKILL.md')).toBe(before)
    const resolved = after.replace(/<<<<<<< [^\n]*\n(Step two: read only the first page\.\n)=======\n[^\n]*\n>>>>>>> [^\n]*\n/, '$1')
    await saveEdits(root, id, [{ path: 'pdf/SKILL.md', before, after: resolved }])
    await acceptProposal(root, id, 'test')
    expect(read('pdf/SKILL.md')).toBe(resolved)
    expect(provenanceOfText(resolved)!.commit).toBe(report.proposals[0]!.to)
  })

  it('queues one proposal per skill: a re-run finds it there; a newer upstream commit replaces the older one', async () => {
    repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Step one', 'Step 1') })
    const first = await updateFromSources({ library: lib, cwd: tmp, env })
    const again = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(again.proposals).toEqual([{ ...first.proposals[0]!, status: 'exists' }])
    repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Step one', 'Step #1') })
    const newer = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(newer.proposals[0]!.id).not.toBe(first.proposals[0]!.id)
    expect((await pending()).map((p) => p.id)).toEqual([newer.proposals[0]!.id])
  })

  it('three `skillbench update` processes at once: one pending proposal for the changed skill, every process told of it', async () => {
    const { spawn } = await import('node:child_process')
    repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Step one', 'Step 1') })
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => {
        return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'update', '--library', lib, '--json'], { env: { ...env, NODE_OPTIONS: '' } })
          let stdout = ''
          let stderr = ''
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
          child.on('close', (code) => resolve({ code, stdout, stderr }))
        })
      })
    )
    const ids = new Set<string>()
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0)
      const out = JSON.parse(r.stdout) as { proposals: { id: string }[] }
      expect(out.proposals.length).toBe(1)
      ids.add(out.proposals[0]!.id)
    }
    expect(ids.size).toBe(1)
    expect((await pending()).map((p) => p.id)).toEqual([...ids])
    expect(read('pdf/SKILL.md')).toContain('Step one') // nothing changes until it is accepted
  }, 120_000)

  it('a source that can no longer be fetched fails with its reason (CLI exit 1), the others still checked', async () => {
    fs.rmSync(repo.bare, { recursive: true })
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'update', '--library', lib, '--json'], { encoding: 'utf8', env: { ...env, NODE_OPTIONS: '' }, timeout: 60_000 })
    expect(r.status).toBe(1)
    const out = JSON.parse(r.stdout) as { failed: { name: string; reason: string }[] }
    expect(out.failed.map((f) => f.name).sort()).toEqual(['csv', 'pdf'])
    expect(out.failed[0]!.reason).toMatch(/^repository not found: file:\/\/.*\ngit said: /)
  })
})
