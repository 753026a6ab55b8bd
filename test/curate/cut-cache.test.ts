import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CurationPlan } from '../../src/shared/types'
import { cutCacheFile, loadCut, saveCut } from '../../src/main/curate/cut-cache'
import { pairsCacheFile } from '../../src/main/curate/pairs-cache'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { termCacheFile } from '../../src/main/curate/term-cache'
import { makeLibrary, pairedSkills, tempDir } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const skills = pairedSkills('200')

const planJson = (plan: CurationPlan): string => JSON.stringify({ ...plan, created_at: undefined })

describe('the join cut-off kept between curate runs', () => {
  const shape = { docs: 10_000, entries: 2_000_000, threshold: 0.5 }

  it('is taken back for a corpus of nearly the same shape only', async () => {
    const file = path.join(tempDir('cut-cache'), 'lib.cut.json')
    expect(await loadCut(file, shape)).toBeUndefined()
    await saveCut(file, shape, 625)
    expect(await loadCut(file, shape)).toBe(625)
    expect(await loadCut(file, { ...shape, docs: 10_400, entries: 2_090_000 })).toBe(625)
    expect(await loadCut(file, { ...shape, docs: 11_000 })).toBeUndefined()
    expect(await loadCut(file, { ...shape, entries: 1_800_000 })).toBeUndefined()
    expect(await loadCut(file, { ...shape, threshold: 0.6 })).toBeUndefined()
    for (const junk of ['', 'null', '{"kind":"other"}', JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), frequentDf: -3 })]) {
      fs.writeFileSync(file, junk)
      expect(await loadCut(file, shape)).toBeUndefined()
    }
  })

  it('a run keeps the cut-off it chose; the next one takes it, and any cut-off gives the same plan', async () => {
    const dir = makeLibrary(skills)
    const cacheDir = tempDir('cut-cache-runs')
    const curate = async (): Promise<string> => planJson(await curateLibrary(await openForCuration(dir), { now: NOW, cacheDir }))
    const plain = planJson(await curateLibrary(await openForCuration(dir), { now: NOW }))
    expect(await curate()).toBe(plain)
    const file = cutCacheFile(termCacheFile(cacheDir, fs.realpathSync(dir)))
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { docs: number; frequentDf: number }
    expect(saved.docs).toBe(skills.length)
    expect(Number.isSafeInteger(saved.frequentDf)).toBe(true)
    // A kept cut-off only decides how fast the join is: every one gives the same pairs, so the same plan. Taken,
    // it is not written again.
    // (The kept pairs are removed first: with them an unchanged library runs no join at all, pairs-cache.ts.)
    const pairs = pairsCacheFile(termCacheFile(cacheDir, fs.realpathSync(dir)))
    for (const frequentDf of [0, 1, 2, Number.MAX_SAFE_INTEGER]) {
      fs.writeFileSync(file, JSON.stringify({ ...saved, frequentDf }))
      fs.rmSync(pairs)
      expect(await curate()).toBe(plain)
      expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { frequentDf: number }).frequentDf).toBe(frequentDf)
    }
  })
})
