/**
 * Undoing a rejection (review/unreject.ts) on real library folders: the proposal waits for review again and the next
 * curate keeps it waiting (its fingerprint left rejections.jsonl), a journal line says who and when; after a member
 * changed it is refused, saying so, and nothing changes; `skillbench unreject` through node bin/skillbench.cjs (text
 * and --json); two real processes rejecting and unrejecting different proposals of one library, while a third
 * recomputes the plan, lose nothing.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Proposal } from '../../src/shared/types'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { acceptProposal, rejectProposal, undoApplied } from '../../src/main/review/decisions'
import { readJournal } from '../../src/main/review/journal'
import { proposalsWithStatus } from '../../src/main/review/plan'
import { readRejections, REJECTIONS_REL } from '../../src/main/review/rejections'
import { unrejectProposal } from '../../src/main/review/unreject'
import { journalEntries } from '../../src/main/workbench/core-modules'
import { bundleChild } from '../helpers/bundle-child'
import { makeLibrary, pairedSkills, snapshot } from '../curate/fixtures'

const ROOT = path.resolve(__dirname, '..', '..')
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
const rejectionsText = (dir: string): string => fs.readFileSync(path.join(dir, ...REJECTIONS_REL.split('/')), 'utf8')

describe('unreject on a real library', () => {
  it('the proposal waits again, its fingerprint leaves the rejections, the next curates keep it pending; a journal line says who', async () => {
    const dir = library()
    const first = await curate(dir)
    const sorting = merge(first, '1001')
    const deploy = merge(first, '1003')
    await rejectProposal(dir, sorting.id, 'alice')
    await rejectProposal(dir, deploy.id, 'alice')
    const files = snapshot(dir)

    const back = await unrejectProposal(dir, sorting.id, 'bob', new Date('2026-11-22T08:00:00Z'))
    expect(back).toMatchObject({ id: sorting.id, status: 'pending' })
    expect(back.rejected).toBeUndefined()
    expect(snapshot(dir)).toEqual(files) // no skill file changes
    // only the other rejection is left, every line whole
    expect((await readRejections(dir)).map((r) => r.proposal_id)).toEqual([deploy.id])
    expect(rejectionsText(dir).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { fingerprint: string }).fingerprint)).toEqual([deploy.fingerprint])
    const { records } = await readJournal(dir)
    expect(records.filter((r) => r.action === 'unreject')).toEqual([
      expect.objectContaining({ action: 'unreject', proposal_id: sorting.id, kind: 'merge', by: 'bob', at: '2026-11-22T08:00:00.000Z', changes: [], ops: [] })
    ])
    // the app's History lists applied changes only: the unreject line is not one
    expect(journalEntries(records)).toEqual([])

    for (let i = 0; i < 2; i++) {
      const again = await curate(dir)
      expect(merge(again, '1001')).toMatchObject({ id: sorting.id, status: 'pending' })
      expect(merge(again, '1001').rejected).toBeUndefined()
      expect(merge(again, '1003')).toMatchObject({ id: deploy.id, status: 'rejected', rejected: { by: 'alice' } })
    }
    // it can be accepted now, and rejected again (which lasts again)
    await acceptProposal(dir, sorting.id, 'bob')
    await undoApplied(dir, sorting.id, 'bob')
    await rejectProposal(dir, sorting.id, 'carol')
    expect(merge(await curate(dir), '1001')).toMatchObject({ status: 'rejected', rejected: { by: 'carol' } })
    // an undone proposal rejected and unrejected is undone again (it was applied once)
    expect(await unrejectProposal(dir, sorting.id, 'carol')).toMatchObject({ status: 'undone' })
    expect(merge(await curate(dir), '1001').status).toBe('undone')
  })

  it('after a member changed it is refused, saying so, and nothing changes; once curate ran again the old id is gone', async () => {
    const dir = library()
    const sorting = merge(await curate(dir), '1001')
    await rejectProposal(dir, sorting.id, 'alice')
    fs.appendFileSync(path.join(dir, 'skill_1002.md'), '\nSort dates by getTime().\n')
    const planBefore = fs.readFileSync(path.join(dir, '.skillbench', 'plan.json'), 'utf8')
    const rejectionsBefore = rejectionsText(dir)

    const err = (await unrejectProposal(dir, sorting.id, 'bob').catch((e: unknown) => e)) as { code: string; messageCode: string; message: string }
    expect(err).toMatchObject({ code: 'conflict', messageCode: 'review.unreject_changed' })
    expect(err.message).toMatch(new RegExp(`^proposal ${sorting.id} cannot wait for review again: its skills changed since it was rejected \\(skill_1002\\.md\\)\\. .*the next curate proposes anew`))
    expect(fs.readFileSync(path.join(dir, '.skillbench', 'plan.json'), 'utf8')).toBe(planBefore)
    expect(rejectionsText(dir)).toBe(rejectionsBefore)
    expect((await readJournal(dir)).records.filter((r) => r.action === 'unreject')).toEqual([])

    // the next curate proposes it anew (new fingerprint, pending); the old id names an earlier rejection only
    const fresh = merge(await curate(dir), '1001')
    expect(fresh.id).not.toBe(sorting.id)
    expect(fresh.status).toBe('pending')
    await expect(unrejectProposal(dir, sorting.id, 'bob')).rejects.toMatchObject({ code: 'conflict', messageCode: 'review.unreject_gone' })
    // a proposal that is not rejected, and an unknown id
    await expect(unrejectProposal(dir, fresh.id, 'bob')).rejects.toMatchObject({ code: 'invalid', messageCode: 'review.not_rejected' })
    await expect(unrejectProposal(dir, 'm-nope', 'bob')).rejects.toMatchObject({ code: 'not_found', messageCode: 'review.no_proposal_plan' })
  })
})

describe('skillbench unreject (node bin/skillbench.cjs)', () => {
  const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })

  it('reject says the way back; unreject brings it back (text and --json); a second unreject and a changed member are refused by code', async () => {
    const dir = library()
    const sorting = merge(await curate(dir), '1001')
    const rj = await run(['reject', sorting.id, '--library', dir, '--user', 'carol'])
    expect(rj.code).toBe(0)
    expect(rj.stdout).toBe(`Rejected ${sorting.id}. It stays rejected until one of its skills changes (see \`skillbench proposals --all\`). Undo with \`skillbench unreject ${sorting.id}\`.\n`)

    const un = await run(['unreject', sorting.id, '--library', dir, '--user', 'carol'])
    expect(un).toMatchObject({ code: 0, stdout: `Rejection of ${sorting.id} undone: it waits for review again (\`skillbench proposals\`; accept or reject it).\n` })
    const listed = await run(['proposals', '--library', dir, '--json'])
    expect((JSON.parse(listed.stdout) as { proposals: Proposal[] }).proposals.map((p) => p.id)).toContain(sorting.id)

    expect((await run(['reject', sorting.id, '--library', dir, '--json'])).code).toBe(0)
    const json = await run(['unreject', sorting.id, '--library', dir, '--user', 'dave', '--json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ status: 'success', proposal_id: sorting.id, proposal_status: 'pending' })
    expect((await readJournal(dir)).records.filter((r) => r.action === 'unreject').map((r) => r.by)).toEqual(['carol', 'dave'])

    const twice = await run(['unreject', sorting.id, '--library', dir, '--json'])
    expect(twice.code).not.toBe(0)
    expect(JSON.parse(twice.stdout || twice.stderr)).toMatchObject({ status: 'error', code: 'invalid', message_code: 'review.not_rejected', params: { id: sorting.id, status: 'pending' } })

    await run(['reject', sorting.id, '--library', dir])
    fs.appendFileSync(path.join(dir, 'skill_1001.md'), '\nA changed line.\n')
    const changed = await run(['unreject', sorting.id, '--library', dir])
    expect(changed.code).not.toBe(0)
    expect(changed.stderr).toContain(`proposal ${sorting.id} cannot wait for review again: its skills changed since it was rejected (skill_1001.md)`)
    const usage = await run(['unreject', '--library', dir])
    expect(usage.code).not.toBe(0)
    expect(usage.stderr).toContain('give one proposal id')
  }, 120_000)
})

describe('two processes rejecting and unrejecting at once', () => {
  type Reply = { op: string; ok?: boolean; i?: number; error?: string }
  let bundle: Promise<string> | undefined
  async function child(): Promise<{ send: (cmd: object) => void; next: (op: string) => Promise<Reply>; stop: () => Promise<void> }> {
    bundle ??= bundleChild(path.join(__dirname, 'decide-child.ts'), fs.mkdtempSync(path.join(os.tmpdir(), 'sb-unreject-')))
    const p = spawn(process.execPath, [await bundle], { stdio: ['pipe', 'pipe', 'inherit'] })
    const replies: Reply[] = []
    const waiters: { op: string; resolve: (r: Reply) => void }[] = []
    let buf = ''
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const r = JSON.parse(buf.slice(0, nl)) as Reply
        buf = buf.slice(nl + 1)
        const w = waiters.findIndex((x) => x.op === r.op)
        if (w >= 0) waiters.splice(w, 1)[0]!.resolve(r)
        else replies.push(r)
      }
    })
    return {
      send: (cmd) => p.stdin.write(JSON.stringify(cmd) + '\n'),
      next: (op) => {
        const i = replies.findIndex((r) => r.op === op)
        if (i >= 0) return Promise.resolve(replies.splice(i, 1)[0]!)
        return new Promise((resolve) => waiters.push({ op, resolve }))
      },
      stop: () =>
        new Promise((resolve) => {
          p.once('exit', () => resolve())
          p.stdin.end()
        })
    }
  }

  it('every rejection and every unreject holds: each one journaled, the last decision of each proposal kept', async () => {
    const dir = library()
    const first = await curate(dir)
    const a = merge(first, '1001')
    const b = merge(first, '1003')
    const TIMES = 8
    const [curator, alice, bob] = await Promise.all([child(), child(), child()])
    curator.send({ op: 'curate', root: dir, times: 6 })
    alice.send({ op: 'cycle', root: dir, id: a.id, by: 'alice', times: TIMES })
    bob.send({ op: 'cycle', root: dir, id: b.id, by: 'bob', times: TIMES })
    expect(await alice.next('cycle')).toMatchObject({ ok: true })
    expect(await bob.next('cycle')).toMatchObject({ ok: true })
    // alice ends rejecting hers; bob leaves his waiting
    alice.send({ op: 'reject', root: dir, id: a.id, by: 'alice' })
    expect(await alice.next('reject')).toMatchObject({ ok: true })
    expect(await curator.next('curate')).toMatchObject({ ok: true })
    await Promise.all([curator.stop(), alice.stop(), bob.stop()])

    const unrejects = (await readJournal(dir)).records.filter((r) => r.action === 'unreject')
    expect(unrejects.filter((r) => r.proposal_id === a.id && r.by === 'alice')).toHaveLength(TIMES)
    expect(unrejects.filter((r) => r.proposal_id === b.id && r.by === 'bob')).toHaveLength(TIMES)
    expect((await readRejections(dir)).map((r) => [r.proposal_id, r.by])).toEqual([[a.id, 'alice']])
    expect(rejectionsText(dir).split('\n').filter(Boolean).every((l) => JSON.parse(l) !== null)).toBe(true)
    for (const ps of [(await proposalsWithStatus(dir)).plan.proposals, await curate(dir)]) {
      expect(merge(ps, '1001')).toMatchObject({ id: a.id, status: 'rejected', rejected: { by: 'alice' } })
      expect(merge(ps, '1003')).toMatchObject({ id: b.id, status: 'pending' })
    }
  }, 120_000)
})
