/**
 * Uses folded into a skill file after a change was prepared (a curation proposal, an undo) carry over to the
 * change instead of failing it as "changed on disk" — and only uses: any other edit still conflicts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { acceptProposal, undoApplied } from '../../src/main/review/decisions'
import { readJournal } from '../../src/main/review/journal'
import { openLibrary } from '../../src/main/store/library'
import { applyUsageDrift, usageDrift } from '../../src/main/store/usage-drift'
import { makeLibrary, skillFileText } from '../curate/fixtures'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const A = skillFileText({ id: '1768600001', title: 'Python calculator', body: 'Write calc.py.\n', fetch: 2 })

describe('usage drift (pure)', () => {
  it('is found when only fetch_count / last_used_at differ, and carried over to another text', () => {
    const folded = A.replace('fetch_count: 2', 'fetch_count: 7').replace('last_used_at: null', "last_used_at: '2026-11-23T10:00:00.000000'")
    const drift = usageDrift(A, folded, 'agiagent')
    expect(drift).toEqual({ fetchDelta: 5, lastUsedAt: '2026-11-23T10:00:00.000000' })
    const edited = A.replace('Write calc.py.', 'Write calc.py with tests.')
    expect(applyUsageDrift(edited, drift!, 'agiagent')).toBe(folded.replace('Write calc.py.', 'Write calc.py with tests.'))
    // Anything else changed: no drift.
    expect(usageDrift(A, edited, 'agiagent')).toBeNull()
    expect(usageDrift(A, folded.replace("title: \"Python calculator\"", "title: \"Calc\""), 'agiagent')).toBeNull()
  })

  it('SKILL.md: counters under metadata.skillbench, and the id a fold stored on its first write', () => {
    const md = '---\nname: pdf-tool\ndescription: Read PDFs\n---\nUse pdftotext.\n'
    const folded = "---\nname: pdf-tool\ndescription: Read PDFs\nmetadata:\n  skillbench:\n    skill_id: '1234567890123456'\n    fetch_count: 3\n    last_used_at: '2026-11-23T10:00:00.000000'\n---\nUse pdftotext.\n"
    const drift = usageDrift(md, folded, 'skill-md')
    expect(drift).toEqual({ fetchDelta: 3, lastUsedAt: '2026-11-23T10:00:00.000000', storedId: '1234567890123456' })
    const edited = md.replace('Use pdftotext.', 'Use pdftotext -layout.')
    expect(applyUsageDrift(edited, drift!, 'skill-md')).toBe(folded.replace('Use pdftotext.', 'Use pdftotext -layout.'))
  })
})

describe('a proposal accepted after uses were folded into its skills', () => {
  it('applies, keeps every folded use in the merged skill, journals what it really wrote, and undoes after more folds', async () => {
    const body = '1. Write calculator.py with add, subtract, multiply and divide.\n2. Raise ValueError on division by zero.\n3. Test with pytest.\n'
    const dir = fs.realpathSync(makeLibrary([
      { id: '1768600001', title: 'Python calculator with tests', body, fetch: 2 },
      { id: '1768600002', title: 'Python calculator with unit tests', body: body + '4. Keep the tests next to the module.\n', fetch: 1 }
    ]))
    dirs.push(dir)
    const opened = await openForCuration(dir)
    const plan = await curateLibrary(opened)
    const merge = plan.proposals.find((p) => p.kind === 'merge')!
    const kept = merge.changes.find((c) => c.before !== null && c.after !== null)!
    const keptId = kept.path.includes('1768600001') ? '1768600001' : '1768600002'
    // Agents use both skills and the uses are folded into the files before a person accepts.
    const lib = await openLibrary(dir)
    for (let i = 0; i < 4; i++) await lib.recordUse(['1768600001', '1768600002'])
    await lib.foldUsage()
    const countsBefore = { a: (await lib.get('1768600001')).fetch_count, b: (await lib.get('1768600002')).fetch_count }
    expect(countsBefore).toEqual({ a: 6, b: 5 })
    const record = await acceptProposal(dir, merge.id, 'tester')
    const after = await openLibrary(dir)
    const keptNow = await after.get(keptId)
    const expectedKept = keptId === '1768600001' ? countsBefore.a : countsBefore.b
    // The merged text as proposed, with the 4 uses folded into the kept skill since carried over.
    const proposed = Number(/^fetch_count: (\d+)$/m.exec(kept.after!)![1])
    expect(keptNow.fetch_count).toBe(proposed + 4)
    expect(keptNow.body).toBe(/^---\n[\s\S]*?\n---\n\n?([\s\S]*)$/.exec(kept.after!)![1])
    // The retired skill keeps its folded uses in legacy/.
    const retiredId = keptId === '1768600001' ? '1768600002' : '1768600001'
    const retired = await after.get(retiredId, { includeLegacy: true })
    expect(retired.legacy).toBe(true)
    expect(retired.fetch_count).toBe(keptId === '1768600001' ? countsBefore.b : countsBefore.a)
    // The journal holds what was really on disk before and written after.
    const journaled = (await readJournal(dir)).records.find((r) => r.id === record.id)!
    const change = journaled.changes.find((c) => c.path === kept.path)!
    expect(change.before).toMatch(new RegExp(`^fetch_count: ${expectedKept}$`, 'm'))
    expect(change.after).toBe(fs.readFileSync(path.join(dir, kept.path), 'utf8'))
    // More uses, another fold; undo still works and keeps them.
    for (let i = 0; i < 3; i++) await after.recordUse([keptId])
    await after.foldUsage()
    await undoApplied(dir, merge.id, 'tester')
    const undone = await openLibrary(dir)
    expect((await undone.get(keptId)).fetch_count).toBe(expectedKept + 3)
    expect((await undone.get(keptId === '1768600001' ? '1768600002' : '1768600001')).legacy).toBe(false)
  })

  it('still refuses when a skill was edited by hand since the proposal (not just counted)', async () => {
    const body = '1. Write calculator.py.\n2. Raise ValueError on division by zero.\n3. Test with pytest.\n'
    const dir = fs.realpathSync(makeLibrary([
      { id: '1768600001', title: 'Python calculator with tests', body },
      { id: '1768600002', title: 'Python calculator with unit tests', body: body + '4. Keep the tests next to it.\n' }
    ]))
    dirs.push(dir)
    const plan = await curateLibrary(await openForCuration(dir))
    const merge = plan.proposals.find((p) => p.kind === 'merge')!
    const file = path.join(dir, 'skill_1768600001.md')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Write calculator.py.', 'Write calculator.py by hand.'))
    await expect(acceptProposal(dir, merge.id, 'tester')).rejects.toThrow(/changed on disk since the proposal was made/)
  })
})
