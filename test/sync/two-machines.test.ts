/**
 * `skillbench sync` with real git: a bare repository and clones standing in for machines, each with its own
 * config and cache folders and git identity, the CLI run as its own process.
 */
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

/** Alice starts the team library with two skills; Bob clones it. */
async function startTeam(): Promise<{ alice: Machine; bob: Machine; pdf: string; csv: string }> {
  team = makeTeam()
  const alice = team.machine('Alice')
  const lib = await alice.open()
  const pdf = (await lib.create({ title: 'Read PDF files', usage_conditions: 'When a task reads a PDF', body: '# PDF\n\nOpen it.\n\nRead the pages.\n\nClose it.\n', skill_id: '1700000001' })).skill_id
  const csv = (await lib.create({ title: 'Parse CSV', usage_conditions: 'When a task reads CSV', body: '# CSV\n\nUse the csv module.\n', skill_id: '1700000002' })).skill_id
  const init = alice.sync(['--init', team.url])
  expect(init.code, init.stderr).toBe(0)
  expect(init.json).toMatchObject({ committed: 1, pulled: 0, pushed: 1, conflicts: [] })
  const bob = team.machine('Bob')
  fs.rmSync(bob.lib, { recursive: true })
  bob.git('clone', '-q', team.url, bob.lib)
  return { alice, bob, pdf, csv }
}

describe('sync between two machines', () => {
  it("carries both machines' changes to both sides, with commit messages that say what changed", async () => {
    const { alice, bob, pdf, csv } = await startTeam()
    expect(sharedFiles(bob.lib)).toEqual(sharedFiles(alice.lib))
    // Alice edits one skill, Bob rates another and adds a new one.
    expect((await (await alice.tools()).edit_skill(pdf, 'append', '\nCheck the page count.\n')).status).toBe('success')
    expect((await (await bob.tools()).rate_skill(csv, 1)).status).toBe('success')
    const bobLib = await bob.open()
    await bobLib.create({ title: 'Send email', usage_conditions: 'When a task sends mail', body: 'Use SMTP.\n', skill_id: '1700000003' })
    const a = alice.sync()
    expect(a.code, a.stderr).toBe(0)
    expect(a.json).toEqual({ committed: 1, pulled: 0, pushed: 1, conflicts: [] })
    const b = bob.sync()
    expect(b.code, b.stderr).toBe(0)
    expect(b.json).toMatchObject({ committed: 1, pulled: 1, conflicts: [] })
    expect(b.json!.pushed).toBeGreaterThanOrEqual(2) // Bob's commit and the merge
    const a2 = alice.sync()
    expect(a2.json).toMatchObject({ committed: 0, pushed: 0, conflicts: [] })
    expect(a2.json!.pulled).toBeGreaterThan(0)
    const files = sharedFiles(alice.lib)
    expect(files).toEqual(sharedFiles(bob.lib))
    const pdfFile = [...files.entries()].find(([p]) => p.includes('Read_PDF') || p.includes('read_pdf'))?.[1] ?? [...files.values()].find((t) => t.includes('Read PDF files'))!
    expect(pdfFile).toContain('Check the page count.')
    expect([...files.values()].some((t) => t.includes('Send email'))).toBe(true)
    const csvNow = (await (await alice.open()).get(csv)).quality_index
    expect(csvNow).toBe(0.65) // 0.7·0.5 + 0.3·1
    // The commit messages come from the tools' records.
    const log = alice.git('log', '--format=%an|%s', '--all')
    expect(log).toMatch(/Alice\|edit: Read PDF files \(append\)/)
    expect(log).toMatch(/Bob\|.*rate: Parse CSV 1/)
    expect(log).toMatch(/Bob\|.*add: Send email/)
    // Local state stays local.
    expect(alice.git('ls-files')).not.toMatch(/\.skillbench\/(journal|plan|usage|sync|lock)/)
    expect(alice.git('ls-files')).toMatch(/\.skillbench\/team\/[0-9a-f]{12}\.jsonl/)
  })

  it('an edit both made becomes a proposal naming whose change it is; no live file holds conflict markers', async () => {
    const { alice, bob, pdf } = await startTeam()
    await (await alice.tools()).edit_skill(pdf, 'lines_replace', 'Read the pages carefully.\n', 'Read the pages.\n')
    await (await bob.tools()).edit_skill(pdf, 'lines_replace', 'Read every page twice.\n', 'Read the pages.\n')
    expect(alice.sync().json).toMatchObject({ pushed: 1, conflicts: [] })
    const b = bob.sync()
    expect(b.code, b.stderr).toBe(0)
    expect(b.json!.conflicts).toHaveLength(1)
    expect(b.json!.conflicts[0]!.skill_id).toBe(pdf)
    // The remote's version (Alice's) is live on Bob's machine; Bob's edit waits in a proposal.
    const live = (await (await bob.open()).get(pdf))
    expect(live.body).toContain('Read the pages carefully.')
    expect(live.body).not.toContain('twice')
    for (const [, text] of sharedFiles(bob.lib)) expect(hasMarkers(text)).toBe(false)
    const plan = await loadPlan(bob.lib)
    const p = plan.proposals.find((x) => x.id === b.json!.conflicts[0]!.proposal_id)!
    expect(p.kind).toBe('update')
    expect(p.evidence.sync).toBe(true)
    expect(p.evidence.local_author).toBe('Bob <bob@example.org>')
    expect(p.evidence.remote_author).toBe('Alice <alice@example.org>')
    expect(p.changes[0]!.before).toBe(fs.readFileSync(path.join(bob.lib, live.path), 'utf8'))
    expect(p.changes[0]!.after).toContain('Read every page twice.')
    expect(p.evidence.local).toContain('Read every page twice.')
    // Alice gets the same live files; the proposal is Bob's alone (plans are local).
    alice.sync()
    expect(sharedFiles(alice.lib)).toEqual(sharedFiles(bob.lib))
  })
})
