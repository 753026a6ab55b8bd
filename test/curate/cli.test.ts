import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { DEPLOY, DEPLOY_NEAR, makeLibrary, POETRY, snapshot, SORTING, SORTING_COPY, tempDir } from './fixtures'

function io(cwd = process.cwd()) {
  const out = { stdout: '', stderr: '' }
  const value: CliIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    isTTY: false,
    cwd,
    env: {},
    signal: new AbortController().signal
  }
  return { io: value, out }
}

function library(): string {
  return makeLibrary([
    { id: '1001', title: 'Sorting arrays', body: SORTING, quality: 0.6, fetch: 2, created: '2026-11-01T00:00:00' },
    { id: '1002', title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, fetch: 1, created: '2026-11-02T00:00:00' },
    { id: '1003', title: 'Deploy with compose', body: DEPLOY, created: '2026-11-01T00:00:00', fetch: 1 },
    { id: '1004', title: 'Compose deployment checklist', body: DEPLOY_NEAR, created: '2026-11-01T00:00:00', fetch: 1 },
    { id: '1005', title: 'Haiku', body: POETRY, created: '2020-01-01T00:00:00' }
  ])
}

describe('skillbench curate / proposals / accept / reject / undo / restore', () => {
  it('curate --json prints the plan in the documented shape, progress on stderr, and writes only the plan', async () => {
    const dir = library()
    const before = snapshot(dir)
    const r = io()
    expect(await main(['curate', '--library', dir, '--json'], r.io)).toBe(0)
    expect(snapshot(dir)).toEqual(before)
    expect(fs.readdirSync(path.join(dir, '.skillbench'))).toEqual(['plan.json'])
    expect(r.out.stderr).toMatch(/Loaded 5 skills\nStep 1: Merging similar skills\.\.\.\n[\s\S]*Step 2: Cross-skill integration\.\.\.\n[\s\S]*Step 3: Cleaning unused skills\.\.\./)
    const plan = JSON.parse(r.out.stdout) as { skills_loaded: number; proposals: Array<Record<string, unknown>>; errors: unknown[] }
    expect(Object.keys(plan)).toEqual(['skills_loaded', 'proposals', 'errors', 'cleanup'])
    expect(plan.skills_loaded).toBe(5)
    for (const p of plan.proposals) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['id', 'kind', 'members', 'score', 'reason', 'evidence', 'changes']))
      for (const m of p.members as Array<Record<string, unknown>>) expect(Object.keys(m).sort()).toEqual(['path', 'skill_id', 'title'])
      for (const c of p.changes as Array<Record<string, unknown>>) expect(Object.keys(c).sort()).toEqual(['after', 'before', 'path'])
    }
    expect(plan.proposals.map((p) => p.kind)).toEqual(['merge', 'merge', 'cleanup'])
  })

  it('curate prints each proposal with the shared words as the skills write them', async () => {
    const dir = library()
    const c = io()
    expect(await main(['curate', '--library', dir], c.io)).toBe(0)
    const line = c.out.stdout.split('\n').find((l) => l.includes('shared words:'))!
    const words = line.split('shared words:')[1]!.trim().split(', ')
    expect(words.length).toBeGreaterThan(0)
    // Words, not stems: each is in the sorting skills' text as written.
    for (const w of words) expect(`${SORTING}\n${SORTING_COPY}\nSorting arrays in TS`.toLowerCase()).toContain(w)
  })

  it('accept, proposals, undo, reject, restore work on the plan and journal', async () => {
    const dir = library()
    const before = snapshot(dir)
    const c = io()
    expect(await main(['curate', '--library', dir, '--json'], c.io)).toBe(0)
    const ids = (JSON.parse(c.out.stdout) as { proposals: Array<{ id: string }> }).proposals.map((p) => p.id)

    const a = io()
    expect(await main(['accept', ids[0]!, '--library', dir, '--user', 'alice'], a.io)).toBe(0)
    expect(a.out.stdout).toContain(`Applied ${ids[0]} (merge)`)
    expect(fs.existsSync(path.join(dir, 'legacy', 'skill_1002.md'))).toBe(true)

    const rj = io()
    expect(await main(['reject', ids[1]!, '--library', dir], rj.io)).toBe(0)
    const ls = io()
    expect(await main(['proposals', '--library', dir, '--json', '--all'], ls.io)).toBe(0)
    expect((JSON.parse(ls.out.stdout) as { proposals: Array<{ status: string }> }).proposals.map((p) => p.status)).toEqual(['applied', 'rejected', 'pending'])
    // without --all: what still waits for a decision
    const waiting = io()
    expect(await main(['proposals', '--library', dir, '--json'], waiting.io)).toBe(0)
    expect((JSON.parse(waiting.out.stdout) as { proposals: Array<{ status: string }> }).proposals.map((p) => p.status)).toEqual(['pending'])

    const cl = io()
    expect(await main(['accept', ids[2]!, '--library', dir, '--json'], cl.io)).toBe(0)
    const rs = io()
    expect(await main(['restore', '1005', '--library', dir, '--json'], rs.io)).toBe(0)
    expect(JSON.parse(rs.out.stdout)).toMatchObject({ status: 'success', skill_id: '1005', path: 'skill_1005.md' })

    const u = io()
    expect(await main(['undo', ids[0]!, '--library', dir, '--user', 'alice'], u.io)).toBe(0)
    expect(snapshot(dir)).toEqual(before)
    const journal = fs.readFileSync(path.join(dir, '.skillbench', 'journal'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { action: string; by: string })
    expect(journal.map((j) => `${j.action}:${j.by}`)).toEqual(['apply:alice', expect.stringMatching(/^apply:/), expect.stringMatching(/^restore:/), 'undo:alice'])
  })

  it('bad ids and missing plans exit 1 with a clear message; bad usage exits 2', async () => {
    const dir = library()
    const nop = io()
    expect(await main(['accept', 'm-123', '--library', dir], nop.io)).toBe(1)
    expect(nop.out.stderr).toMatch(/no pending plan in this library: run `skillbench curate` first/)
    const usage = io()
    expect(await main(['accept', '--library', dir], usage.io)).toBe(2)
    const llm = io()
    expect(await main(['curate', '--library', dir, '--llm', 'magic'], llm.io)).toBe(2)
    const missing = io()
    expect(await main(['curate', '--library', path.join(tempDir('none'), 'nope')], missing.io)).toBe(1)
    expect(missing.out.stderr).toMatch(/not found/)
  })

  it('curate --apply applies every proposal and journals each one', async () => {
    const dir = library()
    const r = io()
    expect(await main(['curate', '--library', dir, '--apply', '--user', 'ci'], r.io)).toBe(0)
    expect(r.out.stderr).toMatch(/Applied m-/)
    const lines = fs.readFileSync(path.join(dir, '.skillbench', 'journal'), 'utf8').trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.md')).sort()).toEqual(['skill_1001.md', 'skill_1003.md'])
  })
})
