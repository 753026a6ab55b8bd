/**
 * Decisions last (issue 36): a rejected proposal stays rejected through every recomputed plan until one of its
 * skills changes (its fingerprint: members and content); an undone proposal can be reviewed and accepted again;
 * `skillbench proposals --all` lists rejected ones; two processes rejecting and computing plans at once keep every
 * decision (real child processes).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Proposal } from '../../src/shared/types'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { acceptProposal, rejectProposal, undoApplied } from '../../src/main/review/decisions'
import { proposalsWithStatus } from '../../src/main/review/plan'
import { readRejections, REJECTIONS_REL } from '../../src/main/review/rejections'
import { bundleChild } from '../helpers/bundle-child'
import { makeLibrary, pairedSkills, snapshot } from '../curate/fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function library(): string {
  const dir = makeLibrary(pairedSkills('100'))
  dirs.push(dir)
  return fs.realpathSync(dir)
}

async function curate(dir: string): Promise<Proposal[]> {
  await curateLibrary(await openForCuration(dir), { now: NOW })
  return (await proposalsWithStatus(dir)).plan.proposals
}

const merge = (ps: Proposal[], id: string): Proposal => ps.find((p) => p.kind === 'merge' && p.members.some((m) => m.skill_id === id))!

function cli(): { io: CliIo; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: process.cwd(), env: {}, signal: new AbortController().signal } }
}

describe('a rejection lasts', () => {
  it('a rejected proposal stays rejected when the plan is computed again, and accept refuses it saying why', async () => {
    const dir = library()
    const first = await curate(dir)
    const sorting = merge(first, '1001')
    expect(sorting.fingerprint).toMatch(/^[0-9a-f]{24}$/)
    await rejectProposal(dir, sorting.id, 'alice', new Date('2026-11-21T13:00:00Z'))
    for (let i = 0; i < 2; i++) {
      const again = merge(await curate(dir), '1001')
      expect(again).toMatchObject({ id: sorting.id, status: 'rejected', rejected: { at: '2026-11-21T13:00:00.000Z', by: 'alice' } })
    }
    // the other proposals still wait
    expect(merge(await curate(dir), '1003').status).toBe('pending')
    await expect(acceptProposal(dir, sorting.id, 'bob')).rejects.toThrow(/was rejected \(2026-11-21 by alice\); it stays rejected until one of its skills changes/)
    const records = await readRejections(dir)
    expect(records).toEqual([expect.objectContaining({ fingerprint: sorting.fingerprint, proposal_id: sorting.id, kind: 'merge', by: 'alice' })])
  })

  it('once a member changes, the proposal is new and waits for review; --all lists the earlier rejection', async () => {
    const dir = library()
    const sorting = merge(await curate(dir), '1001')
    await rejectProposal(dir, sorting.id, 'alice')
    fs.appendFileSync(path.join(dir, 'skill_1002.md'), '\nSort dates by getTime().\n')
    const changed = merge(await curate(dir), '1001')
    expect(changed.id).not.toBe(sorting.id)
    expect(changed.fingerprint).not.toBe(sorting.fingerprint)
    expect(changed.status).toBe('pending')
    expect(changed.rejected).toBeUndefined()

    const all = cli()
    expect(await main(['proposals', '--library', dir, '--all'], all.io)).toBe(0)
    expect(all.out.stdout).toMatch(/Rejected earlier, no longer proposed \(a member changed since\):\n {2}\[m-[0-9a-f]+\] merge {2}Sorting arrays \+ Sorting arrays in TS {2}rejected \d{4}-\d\d-\d\d by alice/)
  })

  it('`skillbench proposals` shows what waits; --all shows the rejected one with when and by whom', async () => {
    const dir = library()
    const sorting = merge(await curate(dir), '1001')
    const rj = cli()
    expect(await main(['reject', sorting.id, '--library', dir, '--user', 'carol'], rj.io)).toBe(0)
    expect(rj.out.stdout).toContain('It stays rejected until one of its skills changes')
    await curate(dir)
    const waiting = cli()
    expect(await main(['proposals', '--library', dir], waiting.io)).toBe(0)
    expect(waiting.out.stdout).not.toContain(sorting.id)
    expect(waiting.out.stdout).toMatch(/\(1 applied or rejected not shown: --all\)/)
    const all = cli()
    expect(await main(['proposals', '--library', dir, '--all'], all.io)).toBe(0)
    expect(all.out.stdout).toMatch(new RegExp(`\\[${sorting.id}\\] merge \\(rejected \\d{4}-\\d\\d-\\d\\d by carol\\)`))
    // curate --apply never overrides a rejection
    const before = fs.readFileSync(path.join(dir, 'skill_1002.md'), 'utf8')
    const ap = cli()
    expect(await main(['curate', '--library', dir, '--apply', '--no-usage'], ap.io)).toBe(0)
    expect(fs.readFileSync(path.join(dir, 'skill_1002.md'), 'utf8')).toBe(before)
  })
})

describe('an undone proposal can be decided again', () => {
  it('accept, undo, compute again: it is "undone", accepting it again applies it; it can also be rejected', async () => {
    const dir = library()
    const original = snapshot(dir)
    const sorting = merge(await curate(dir), '1001')
    await acceptProposal(dir, sorting.id, 'alice')
    const applied = snapshot(dir)
    await undoApplied(dir, sorting.id, 'alice')
    expect(snapshot(dir)).toEqual(original)
    const again = merge(await curate(dir), '1001')
    expect(again).toMatchObject({ id: sorting.id, status: 'undone' })
    await acceptProposal(dir, sorting.id, 'bob')
    expect(snapshot(dir)).toEqual(applied)
    expect(merge((await proposalsWithStatus(dir)).plan.proposals, '1001').status).toBe('applied')
    await undoApplied(dir, sorting.id, 'bob')
    await rejectProposal(dir, sorting.id, 'bob')
    expect(merge(await curate(dir), '1001').status).toBe('rejected')
  })
})

describe('two processes deciding at once', () => {
  let bundle: Promise<string> | undefined
  type Reply = { op: string; ok?: boolean; i?: number; error?: string; id?: string }
  async function child(): Promise<{ send: (cmd: object) => void; next: (pred: (r: Reply) => boolean) => Promise<Reply>; stop: () => Promise<void> }> {
    bundle ??= bundleChild(path.join(__dirname, 'decide-child.ts'), fs.mkdtempSync(path.join(os.tmpdir(), 'sb-decide-')))
    const p = spawn(process.execPath, [await bundle], { stdio: ['pipe', 'pipe', 'inherit'] })
    const replies: Reply[] = []
    const waiters: { pred: (r: Reply) => boolean; resolve: (r: Reply) => void }[] = []
    let buf = ''
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const r = JSON.parse(buf.slice(0, nl)) as Reply
        buf = buf.slice(nl + 1)
        const w = waiters.findIndex((x) => x.pred(r))
        if (w >= 0) waiters.splice(w, 1)[0]!.resolve(r)
        else replies.push(r)
      }
    })
    return {
      send: (cmd) => p.stdin.write(JSON.stringify(cmd) + '\n'),
      next: (pred) => {
        const i = replies.findIndex(pred)
        if (i >= 0) return Promise.resolve(replies.splice(i, 1)[0]!)
        return new Promise((resolve) => waiters.push({ pred, resolve }))
      },
      stop: () =>
        new Promise((resolve) => {
          p.once('exit', () => resolve())
          p.stdin.end()
        })
    }
  }

  it('rejections made while another process recomputes the plan again and again all hold', async () => {
    const dir = library()
    const first = await curate(dir)
    const ids = [merge(first, '1001').id, merge(first, '1003').id]
    const [curator, alice, bob] = await Promise.all([child(), child(), child()])
    curator.send({ op: 'curate', root: dir, times: 12 })
    // both reject while the curator is between its runs (computing a plan that still lists them as pending)
    await curator.next((r) => r.op === 'curated' && r.i === 2)
    alice.send({ op: 'reject', root: dir, id: ids[0], by: 'alice' })
    bob.send({ op: 'reject', root: dir, id: ids[1], by: 'bob' })
    expect(await alice.next((r) => r.op === 'reject')).toMatchObject({ ok: true })
    expect(await bob.next((r) => r.op === 'reject')).toMatchObject({ ok: true })
    expect(await curator.next((r) => r.op === 'curate')).toMatchObject({ ok: true })
    await Promise.all([curator.stop(), alice.stop(), bob.stop()])

    const plan = (await proposalsWithStatus(dir)).plan.proposals
    expect(plan.filter((p) => ids.includes(p.id)).map((p) => [p.status, p.rejected?.by]).sort()).toEqual([
      ['rejected', 'alice'],
      ['rejected', 'bob']
    ])
    expect((await readRejections(dir)).map((r) => r.by).sort()).toEqual(['alice', 'bob'])
    // every line whole: each append was made under the lock
    expect(fs.readFileSync(path.join(dir, ...REJECTIONS_REL.split('/')), 'utf8').split('\n').filter(Boolean).every((l) => JSON.parse(l) !== null)).toBe(true)
  }, 60_000)
})
