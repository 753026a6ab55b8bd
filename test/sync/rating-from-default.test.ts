/**
 * Ratings made on two machines combine even when the skill's file holds no quality yet (every new SKILL.md
 * skill: rate_skill reads the default 0.5). Real git, the CLI's sync as its own process.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyRating } from '../../src/main/sync/skill-merge'
import { makeTeam, type Team } from './team'

let team: Team | undefined

afterEach(() => {
  team?.cleanup()
  team = undefined
})

describe('sync of ratings on a skill without a quality in its file', () => {
  it('replays both machines\u2019 ratings from the default, in time order, on both sides', async () => {
    team = makeTeam()
    const alice = team.machine('Alice')
    fs.mkdirSync(path.join(alice.lib, 'pdf-tools'), { recursive: true })
    fs.writeFileSync(path.join(alice.lib, 'pdf-tools', 'SKILL.md'), '---\nname: pdf-tools\ndescription: Merge and split PDF files\n---\n\n# PDF tools\n\nUse qpdf.\n')
    const init = alice.sync(['--init', team.url])
    expect(init.code, init.stderr).toBe(0)
    expect(alice.read('pdf-tools/SKILL.md')).not.toContain('quality_index')
    const bob = team.machine('Bob')
    fs.rmSync(bob.lib, { recursive: true })
    bob.git('clone', '-q', team.url, bob.lib)
    const id = (await (await alice.open()).list()).skills[0]!.skill_id
    expect((await (await alice.tools()).rate_skill(id, 1)).status).toBe('success')
    await new Promise((r) => setTimeout(r, 20)) // Bob's rating is the later one
    expect((await (await bob.tools()).rate_skill(id, 0)).status).toBe('success')
    for (const m of [alice, bob, alice]) {
      const r = m.sync()
      expect(r.code, r.stderr).toBe(0)
      expect(r.json?.conflicts).toEqual([])
    }
    const want = applyRating(applyRating(0.5, 1), 0) // 0.65, then 0.455
    expect((await (await alice.open()).get(id)).quality_index).toBe(want)
    expect((await (await bob.open()).get(id)).quality_index).toBe(want)
  })
})
