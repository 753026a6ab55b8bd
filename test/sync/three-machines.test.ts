/**
 * Three machines syncing in a loop with random edits, uses, ratings and new skills (a seeded generator): after
 * the last rounds every machine has the same files, every edit is either live or in a proposal that sync
 * reported on the machine that made it, and every use is counted once.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { loadPlan } from '../../src/main/review/plan'
import { syncLibrary, type SyncReport } from '../../src/main/sync/sync'
import { hasMarkers, makeTeam, sharedFiles, type Machine, type Team } from './team'
import fs from 'node:fs'

let team: Team

afterAll(() => team?.cleanup())

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('three machines in a loop', () => {
  it('converge to the same files with every reported edit present and every use counted', async () => {
    const seed = Number(process.env.SYNC_LOOP_SEED ?? 20261202)
    const rnd = random(seed)
    team = makeTeam('sb-sync-loop-')
    const machines: Machine[] = ['Ann', 'Ben', 'Cai'].map((n) => team.machine(n))
    const [first] = machines as [Machine]
    const ids: string[] = []
    const lib = await first.open()
    for (let i = 0; i < 6; i++) ids.push((await lib.create({ title: `Skill ${i}`, body: `Body of skill ${i}.\n`, skill_id: String(1_700_000_000 + i) })).skill_id)
    expect(first.sync(['--init', team.url]).code).toBe(0)
    for (const m of machines.slice(1)) {
      fs.rmSync(m.lib, { recursive: true })
      m.git('clone', '-q', team.url, m.lib)
    }
    const sync = (m: Machine): Promise<SyncReport> => syncLibrary({ library: m.lib, env: m.env })
    const edits: Array<{ machine: Machine; mark: string }> = []
    const reported = new Map<Machine, Set<string>>(machines.map((m) => [m, new Set<string>()]))
    let uses = 0
    let made = 0
    for (let round = 0; round < 5; round++) {
      for (const m of [...machines].sort(() => rnd() - 0.5)) {
        const tools = await m.tools()
        const store = await m.open()
        const active = (await store.list()).skills.map((s) => s.skill_id)
        for (let k = 0; k < 3; k++) {
          const id = active[Math.floor(rnd() * active.length)]!
          const roll = rnd()
          if (roll < 0.4) {
            const mark = `edit-${m.name}-${round}-${k}`
            const r = await tools.edit_skill(id, 'append', `${mark}\n`)
            if (r.status === 'success') edits.push({ machine: m, mark })
          } else if (roll < 0.6) {
            await tools.rate_skill(id, Math.round(rnd() * 10) / 10)
          } else if (roll < 0.85) {
            await store.recordUse([id])
            uses++
          } else {
            await store.create({ title: `New ${m.name} ${round} ${k}`, body: `made by ${m.name}\n`, skill_id: String(1_900_000_000 + made++) })
          }
        }
        const report = await sync(m)
        for (const c of report.conflicts) reported.get(m)!.add(c.proposal_id)
      }
    }
    // Quiet rounds: everyone syncs until nothing moves.
    for (let i = 0; i < 2; i++) for (const m of machines) for (const c of (await sync(m)).conflicts) reported.get(m)!.add(c.proposal_id)
    const files = machines.map((m) => sharedFiles(m.lib))
    expect(files[1]).toEqual(files[0])
    expect(files[2]).toEqual(files[0])
    const live = [...files[0]!.values()].join('\n')
    for (const text of files[0]!.values()) expect(hasMarkers(text)).toBe(false)
    for (const e of edits) {
      if (live.includes(e.mark)) continue
      const plan = await loadPlan(e.machine.lib)
      const inProposal = plan.proposals.some((p) => reported.get(e.machine)!.has(p.id) && p.changes.some((c) => c.after?.includes(e.mark)))
      expect(inProposal, `${e.mark} (seed ${seed}) is neither live nor in a reported proposal`).toBe(true)
    }
    // The loop did meet edits both sides made (else it proved nothing about them).
    const conflicts = [...reported.values()].reduce((n, s) => n + s.size, 0)
    expect(conflicts).toBeGreaterThan(0)
    expect(edits.length).toBeGreaterThan(10)
    // Every use counted exactly once: the sum of fetch_count over the skills equals the uses made.
    const skills = (await (await first.open()).list({ includeLegacy: true })).skills
    expect(skills.reduce((s, k) => s + k.fetch_count, 0)).toBe(uses)
  }, 600_000)
})
