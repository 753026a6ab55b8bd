/**
 * `skillbench usage` on one clone of a shared library counts the uses the other machines recorded (their team
 * ledgers), as the skill's fetch_count already does, and never counts this machine's own uses twice. Real git,
 * the CLI as its own processes.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, makeTeam, type Machine, type Team } from './team'

let team: Team | undefined

afterEach(() => {
  team?.cleanup()
  team = undefined
})

function cli(m: Machine, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args, '--library', m.lib], { env: m.env, encoding: 'utf8', timeout: 120_000 })
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}

function usesOf(m: Machine, name: string): number {
  const r = cli(m, ['usage', '--json'])
  expect(r.code, r.stderr).toBe(0)
  const report = JSON.parse(r.stdout) as { skills: Array<{ name: string; uses: number }> }
  return report.skills.find((s) => s.name === name)!.uses
}

describe('usage of a library shared through git', () => {
  it("counts the other machine's recorded queries, and this machine's own once", async () => {
    team = makeTeam()
    const alice = team.machine('Alice')
    for (const [name, description] of [['pdf-tools', 'Merge and split PDF files with qpdf'], ['csv-tools', 'Parse CSV files with the csv module']] as const) {
      fs.mkdirSync(path.join(alice.lib, name), { recursive: true })
      fs.writeFileSync(path.join(alice.lib, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}.\n`)
    }
    expect(alice.sync(['--init', team.url]).code).toBe(0)
    const bob = team.machine('Bob')
    fs.rmSync(bob.lib, { recursive: true })
    bob.git('clone', '-q', team.url, bob.lib)
    expect(usesOf(bob, 'pdf-tools')).toBe(0)
    // Alice looks the PDF skill up twice and shares it.
    for (let i = 0; i < 2; i++) {
      const q = cli(alice, ['query', 'merge split pdf qpdf', '--top', '1'])
      expect(q.code, q.stderr).toBe(0)
    }
    expect(usesOf(alice, 'pdf-tools')).toBe(2)
    for (const m of [alice, bob]) expect(m.sync().code).toBe(0)
    expect(fs.readdirSync(path.join(bob.lib, '.skillbench', 'team')).length).toBe(1)
    expect(usesOf(bob, 'pdf-tools')).toBe(2)
    expect(usesOf(bob, 'csv-tools')).toBe(0)
    // Bob's own use: counted once on his side (his local ledger, not again from his team file), and on Alice's.
    expect(cli(bob, ['query', 'merge split pdf qpdf', '--top', '1']).code).toBe(0)
    for (const m of [bob, alice]) expect(m.sync().code).toBe(0)
    expect(fs.readdirSync(path.join(bob.lib, '.skillbench', 'team')).length).toBe(2)
    expect(usesOf(bob, 'pdf-tools')).toBe(3)
    expect(usesOf(alice, 'pdf-tools')).toBe(3)
  })
})
