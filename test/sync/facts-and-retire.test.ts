/**
 * Sync with real git: uses counted on two machines add up, a skill retired on one side and edited on the other is
 * offered for review with nothing lost, a repository in the middle of a rebase is refused, and a push refused
 * because someone pushed first is retried after joining.
 */
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadPlan } from '../../src/main/review/plan'
import { hasMarkers, makeTeam, sharedFiles, type Machine, type Team } from './team'

let team: Team | undefined

afterEach(() => {
  team?.cleanup()
  team = undefined
})

async function startTeam(): Promise<{ alice: Machine; bob: Machine; pdf: string; csv: string }> {
  team = makeTeam()
  const alice = team.machine('Alice')
  const lib = await alice.open()
  const pdf = (await lib.create({ title: 'Read PDF files', usage_conditions: 'When a task reads a PDF', body: '# PDF\n\nOpen it.\n\nRead the pages.\n', skill_id: '1700000001' })).skill_id
  const csv = (await lib.create({ title: 'Parse CSV', usage_conditions: 'When a task reads CSV', body: '# CSV\n\nUse the csv module.\n', skill_id: '1700000002' })).skill_id
  expect(alice.sync(['--init', team.url]).code).toBe(0)
  const bob = team.machine('Bob')
  fs.rmSync(bob.lib, { recursive: true })
  bob.git('clone', '-q', team.url, bob.lib)
  return { alice, bob, pdf, csv }
}

describe('facts from each machine', () => {
  it('uses counted on both machines add up, and last_used_at is the latest, on both sides', async () => {
    const { alice, bob, pdf, csv } = await startTeam()
    const a = await alice.open()
    for (let i = 0; i < 3; i++) await a.recordUse([pdf], { at: `2026-01-0${i + 1}T10:00:00.000000` })
    await a.recordUse([csv], { at: '2026-01-05T10:00:00.000000' })
    const b = await bob.open()
    await b.recordUse([pdf], { at: '2026-01-04T09:00:00.000000' })
    await b.recordUse([pdf, csv], { at: '2026-01-02T09:00:00.000000' })
    expect(alice.sync().code).toBe(0)
    const r = bob.sync()
    expect(r.code, r.stderr).toBe(0)
    expect(r.json!.conflicts).toEqual([])
    expect(alice.sync().code).toBe(0)
    for (const m of [alice, bob]) {
      const lib = await m.open()
      expect((await lib.get(pdf)).fetch_count).toBe(5)
      expect((await lib.get(pdf)).last_used_at).toBe('2026-01-04T09:00:00.000000')
      expect((await lib.get(csv)).fetch_count).toBe(2)
      expect((await lib.get(csv)).last_used_at).toBe('2026-01-05T10:00:00.000000')
    }
    expect(sharedFiles(alice.lib)).toEqual(sharedFiles(bob.lib))
    // One ledger per machine, each holding that machine's uses only.
    const ledgers = alice.git('ls-files', '.skillbench/team').trim().split('\n')
    expect(ledgers).toHaveLength(2)
  })

  it('ratings made on both machines replay in time order through 0.7·old + 0.3·rating', async () => {
    const { alice, bob, pdf } = await startTeam()
    // Alice rates at 10:00, Bob at 10:01 and 10:02 (clocks are the machines' own).
    await (await alice.tools()).rate_skill(pdf, 1)
    await new Promise((r) => setTimeout(r, 1100))
    await (await bob.tools()).rate_skill(pdf, 0)
    await new Promise((r) => setTimeout(r, 1100))
    await (await bob.tools()).rate_skill(pdf, 0.5)
    expect(alice.sync().code).toBe(0)
    const r = bob.sync()
    expect(r.json!.conflicts).toEqual([])
    alice.sync()
    // 0.5 → 1: 0.65 → 0: 0.455 → 0.5: 0.4685 (rounded to 0.469 as rate_skill rounds each step)
    for (const m of [alice, bob]) expect((await (await m.open()).get(pdf)).quality_index).toBe(0.469)
  })
})

describe('a skill retired on one side and edited on the other', () => {
  it('retired remotely, edited here: the retirement lands, the edit comes back as a proposal, nothing lost', async () => {
    const { alice, bob, pdf } = await startTeam()
    expect((await (await alice.tools()).delete_skill(pdf)).status).toBe('success')
    await (await bob.tools()).edit_skill(pdf, 'append', 'Bob: mind scanned pages.\n')
    expect(alice.sync().code).toBe(0)
    const r = bob.sync()
    expect(r.code, r.stderr).toBe(0)
    expect(r.json!.conflicts).toEqual([{ skill_id: pdf, proposal_id: expect.stringMatching(/^sync-/) }])
    const lib = await bob.open()
    expect((await lib.get(pdf, { includeLegacy: true })).legacy).toBe(true)
    const p = (await loadPlan(bob.lib)).proposals.find((x) => x.id === r.json!.conflicts[0]!.proposal_id)!
    expect(p.evidence.case).toBe('removed_remote')
    expect(p.changes.some((c) => c.before === null && c.after?.includes('Bob: mind scanned pages.'))).toBe(true)
    for (const [, text] of sharedFiles(bob.lib)) expect(hasMarkers(text)).toBe(false)
  })

  it('retired here, edited remotely: the edit is live, retiring it again is offered, nothing lost', async () => {
    const { alice, bob, pdf } = await startTeam()
    await (await alice.tools()).edit_skill(pdf, 'append', 'Alice: mind scanned pages.\n')
    expect(alice.sync().code).toBe(0)
    expect((await (await bob.tools()).delete_skill(pdf)).status).toBe('success')
    const r = bob.sync()
    expect(r.code, r.stderr).toBe(0)
    expect(r.json!.conflicts).toHaveLength(1)
    const live = await (await bob.open()).get(pdf)
    expect(live.legacy).toBe(false)
    expect(live.body).toContain('Alice: mind scanned pages.')
    const legacy = fs.readdirSync(path.join(bob.lib, 'legacy'))
    expect(legacy.length).toBe(1) // Bob's retired copy is kept too
    const p = (await loadPlan(bob.lib)).proposals.find((x) => x.id === r.json!.conflicts[0]!.proposal_id)!
    expect(p.evidence.case).toBe('removed_local')
    expect(p.changes.find((c) => c.path === live.path)!.after).toBeNull()
    expect(p.changes.find((c) => c.path.startsWith('legacy/'))!.after).toContain('Alice: mind scanned pages.')
  })
})

describe('the repository and the remote', () => {
  it('refuses with a clear message while a rebase is in progress, and changes nothing', async () => {
    const { bob } = await startTeam()
    bob.git('checkout', '-q', '-b', 'side')
    fs.writeFileSync(path.join(bob.lib, 'notes.md'), 'side\n')
    bob.git('add', '-A')
    bob.git('commit', '-q', '-m', 'side')
    bob.git('checkout', '-q', 'main')
    fs.writeFileSync(path.join(bob.lib, 'notes.md'), 'main\n')
    bob.git('add', '-A')
    bob.git('commit', '-q', '-m', 'main')
    try {
      bob.git('rebase', 'side')
    } catch {
      // stops on the conflict, as wanted
    }
    const head = bob.git('rev-parse', 'HEAD')
    const r = bob.sync()
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/in the middle of a rebase.*finish it \(or abort it/)
    // --json: the same failure by code, the operation a coded param of its own (the app words both)
    const failure = JSON.parse(r.stdout) as Record<string, unknown>
    expect(failure).toMatchObject({ status: 'error', code: 'in_progress', message_code: 'sync.in_progress', params: { what: { messageCode: 'sync.op_rebase', params: {} }, root: bob.lib } })
    expect(bob.git('rev-parse', 'HEAD')).toBe(head)
  })

  it('a push refused because someone pushed first is retried after joining their change', async () => {
    const { alice, bob, pdf, csv } = await startTeam()
    await (await bob.tools()).edit_skill(csv, 'append', 'Bob was here.\n')
    const resume = path.join(team!.dir, 'resume-bob')
    const child = bob.syncChild({ SKILLBENCH_SYNC_PAUSE_AT: 'before-push', SKILLBENCH_SYNC_RESUME_FILE: resume })
    let stderr = ''
    let stdout = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    await new Promise<void>((resolve) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString()
        if (stderr.includes('paused at before-push')) resolve()
      })
    })
    // Bob fetched and is about to push; Alice pushes first.
    await (await alice.tools()).edit_skill(pdf, 'append', 'Alice was here.\n')
    expect(alice.sync().json).toMatchObject({ pushed: 1 })
    fs.writeFileSync(resume, '')
    const [code] = (await once(child, 'exit')) as [number]
    expect(code, stderr).toBe(0)
    const json = JSON.parse(stdout) as { pulled: number; pushed: number }
    expect(json.pulled).toBe(1)
    expect(json.pushed).toBeGreaterThanOrEqual(2)
    expect(stderr).toMatch(/moved on while pushing/)
    alice.sync()
    expect(sharedFiles(alice.lib)).toEqual(sharedFiles(bob.lib))
    expect(alice.read(path.relative(alice.lib, path.join(alice.lib, (await (await alice.open()).get(csv)).path)))).toContain('Bob was here.')
    expect(bob.read((await (await bob.open()).get(pdf)).path)).toContain('Alice was here.')
  })
})
