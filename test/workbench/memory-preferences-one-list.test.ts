/**
 * The Memory screen's preferences, through the workbench's API on a copy of the sample data: a preference "Learn
 * from tasks" proposes for review on Curate is in `memory.status` (proposedPreferences) until it is decided there,
 * then in long-term memory's preferences block (longTermPreferences); "Find preferences" and "Learn from tasks" never
 * put the same preference in both places.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LibraryInfo, MemoryStatusResult, PendingPreferenceInfo } from '../../src/shared/api'
import { benchesDisposedAfterEach, type TestBench } from './helpers'

const bench = benchesDisposedAfterEach()

async function alice(b: TestBench): Promise<string> {
  return (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
}

interface Learned {
  tasks: number
  proposed: number
  skipped: number
  preferences: number
}

describe('preferences waiting for review: one list', () => {
  it('the preference Learn from tasks proposes is listed as waiting, not queued again, and once accepted on Curate is in long-term memory', async () => {
    const b = await bench()
    const lib = await alice(b)
    const before = await b.call<MemoryStatusResult>('memory.status', { library: lib })
    expect([before.proposedPreferences, before.pendingPreferences, before.longTermPreferences]).toEqual([[], [], []])

    const learned = await b.call<Learned>('memory.evolve', { library: lib })
    expect(learned).toMatchObject({ tasks: 4, proposed: 1, preferences: 1 })
    const st = await b.call<MemoryStatusResult>('memory.status', { library: lib })
    // the scanner's find ("代码注释用中文。") cleaned as the memory's own are
    expect(st.proposedPreferences).toEqual([{ proposalId: expect.stringMatching(/^memory-preferences-/), text: '代码注释用中文', tasks: 1 }])
    expect(st.pendingPreferences).toEqual([])

    // the other way of finding preferences sees the same one waiting already
    const captured = await b.call<{ found: number; queued: number; pending: PendingPreferenceInfo[] }>('memory.capturePreferences', { library: lib })
    expect(captured).toEqual({ found: 1, queued: 0, pending: [] })

    await b.call('curate.accept', { library: lib, proposalId: st.proposedPreferences[0]!.proposalId })
    const after = await b.call<MemoryStatusResult>('memory.status', { library: lib })
    expect(after.proposedPreferences).toEqual([])
    expect(after.longTermPreferences).toEqual(['代码注释用中文'])
    expect(fs.readFileSync(path.join(b.root, 'alice', 'memory', 'preferences.md'), 'utf8')).toContain('- 代码注释用中文\n')
  })

  it('a preference already queued by Find preferences is not proposed again by Learn from tasks', async () => {
    const b = await bench()
    const lib = await alice(b)
    expect((await b.call<{ queued: number }>('memory.capturePreferences', { library: lib })).queued).toBe(1)
    const learned = await b.call<Learned>('memory.evolve', { library: lib })
    expect(learned).toMatchObject({ tasks: 4, proposed: 0, skipped: 1, preferences: 0 })
    const st = await b.call<MemoryStatusResult>('memory.status', { library: lib })
    expect(st.proposedPreferences).toEqual([])
    expect(st.pendingPreferences.map((p) => p.text)).toEqual(['代码注释用中文'])
    // accepted here, it is in long-term memory just the same
    await b.call('memory.acceptPreference', { library: lib, id: st.pendingPreferences[0]!.id })
    expect((await b.call<MemoryStatusResult>('memory.status', { library: lib })).longTermPreferences).toEqual(['代码注释用中文'])
  })
})
