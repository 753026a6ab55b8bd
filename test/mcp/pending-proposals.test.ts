import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { bundleChild } from '../helpers/bundle-child'
import { openForCuration } from '../../src/main/curate/service'
import { editProposal, listPendingProposals, PENDING_DIR, savePendingProposal } from '../../src/main/review/pending-proposals'
import { makeLibrary, SORTING, tempDir } from '../curate/fixtures'

describe('pending agent proposals', () => {
  it('never replaces another proposal: one whose id is taken gets a fresh suffix, also when saved at once', async () => {
    const dir = makeLibrary([{ id: '1001', title: 'Sorting arrays', body: SORTING }])
    const root = fs.realpathSync(dir)
    const skill = (await openForCuration(dir)).listing!.skills[0]!
    const text = fs.readFileSync(path.join(root, skill.path), 'utf8')
    const now = new Date('2026-11-27T12:00:00Z')
    const propose = (line: string) =>
      editProposal(skill, text, `${text}\n${line}\n`, { tool: 'edit_skill', args: { skill_id: '1001', edit_mode: 'append' }, base_hash: skill.hash }, now)
    const first = propose('first')
    const second = { ...propose('second'), id: first.id }
    const third = { ...propose('third'), id: first.id }
    expect(await savePendingProposal(root, first)).toBe(`${PENDING_DIR}/${first.id}.json`)
    const [rel2, rel3] = await Promise.all([savePendingProposal(root, second), savePendingProposal(root, third)])
    expect(new Set([first.id, second.id, third.id]).size).toBe(3)
    for (const p of [second, third]) expect(p.id.slice(0, -6)).toBe(first.id.slice(0, -6))
    expect([rel2, rel3]).toEqual([`${PENDING_DIR}/${second.id}.json`, `${PENDING_DIR}/${third.id}.json`])
    const { proposals, errors } = await listPendingProposals(root)
    expect(errors).toEqual([])
    const afterOf = new Map(proposals.map((p) => [p.id, p.changes[0]!.after]))
    expect(afterOf.get(first.id)).toContain('\nfirst\n')
    expect(afterOf.get(second.id)).toContain('\nsecond\n')
    expect(afterOf.get(third.id)).toContain('\nthird\n')
  })

  it('four processes saving proposals under one id at once keep four proposals, each under the id it reports', async () => {
    const dir = makeLibrary([{ id: '1001', title: 'Sorting arrays', body: SORTING }])
    const root = fs.realpathSync(dir)
    const child = await bundleChild(path.join(__dirname, 'pending-child.ts'), tempDir('pending-child'))
    const id = 'edit-1001-20261127T120000Z-abcdef'
    const run = (line: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const p = spawn(process.execPath, [child, root, id, line], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        let err = ''
        p.stdout.on('data', (d: Buffer) => (out += d.toString()))
        p.stderr.on('data', (d: Buffer) => (err += d.toString()))
        p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child ${code}: ${err}`))))
      })
    const lines = ['one', 'two', 'three', 'four']
    const ids = await Promise.all(lines.map(run))
    expect(new Set(ids).size).toBe(4)
    expect(ids).toContain(id)
    for (const saved of ids) expect(saved.slice(0, -6)).toBe(id.slice(0, -6))
    const { proposals, errors } = await listPendingProposals(root)
    expect(errors).toEqual([])
    expect(proposals.map((p) => p.id).sort()).toEqual([...ids].sort())
    // each process's own text under the id it reported
    ids.forEach((saved, k) => expect(proposals.find((p) => p.id === saved)!.changes[0]!.after).toContain(`\n${lines[k]}\n`))
  }, 60_000)
})
