import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CurationPlan } from '../../src/shared/types'
import { corpusDigest, loadPairs, pairsCacheFile, savePairs } from '../../src/main/curate/pairs-cache'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import type { CurationSettings } from '../../src/main/curate/settings'
import { termCacheFile } from '../../src/main/curate/term-cache'
import { makeLibrary, pairedSkills, POETRY, skillFileText, tempDir } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const skills = pairedSkills('300')
const UNCHANGED = 'unchanged since the last run'

const planJson = (plan: CurationPlan): string => JSON.stringify({ ...plan, created_at: undefined })

/** Curates `dir` (with the cache folder, when given) and says whether the join's pairs were taken back. */
async function curate(dir: string, cacheDir: string | undefined, settings: Partial<CurationSettings> = {}): Promise<{ plan: string; reused: boolean }> {
  const messages: string[] = []
  const plan = await curateLibrary(await openForCuration(dir), { now: NOW, cacheDir, settings, onProgress: (p) => messages.push(p.message) })
  return { plan: planJson(plan), reused: messages.some((m) => m.includes(UNCHANGED)) }
}

describe('the join pairs kept between curate runs', () => {
  it('a library curated again with nothing changed takes its pairs back, and the plan is the same', async () => {
    const dir = makeLibrary(skills)
    const cacheDir = tempDir('pairs-cache')
    const plain = (await curate(dir, undefined)).plan
    expect(plain).toContain('"merge"')
    const first = await curate(dir, cacheDir)
    expect(first).toEqual({ plan: plain, reused: false })
    expect(fs.existsSync(pairsCacheFile(termCacheFile(cacheDir, fs.realpathSync(dir))))).toBe(true)
    expect(await curate(dir, cacheDir)).toEqual({ plan: plain, reused: true })
  })

  it('a changed skill, another join threshold or boilerplate setting, a damaged file: the join runs again', async () => {
    const dir = makeLibrary(skills)
    const cacheDir = tempDir('pairs-cache-change')
    const file = pairsCacheFile(termCacheFile(cacheDir, fs.realpathSync(dir)))
    expect((await curate(dir, cacheDir)).reused).toBe(false)

    // A higher merge threshold joins at the same similarity (the join runs at the lower of the merge threshold and
    // 1 − eps): the same pairs serve, filtered by the plan. Another eps or boilerplate setting: their own pairs.
    const higherMerge = { mergeThreshold: 0.95 }
    expect(await curate(dir, cacheDir, higherMerge)).toEqual({ plan: (await curate(dir, undefined, higherMerge)).plan, reused: true })
    for (const settings of [{ eps: 0.4 }, { stripBoilerplate: false }]) {
      expect(await curate(dir, cacheDir, settings)).toEqual({ plan: (await curate(dir, undefined, settings)).plan, reused: false })
    }
    expect((await curate(dir, cacheDir)).reused).toBe(false) // the file now holds the last run's pairs
    expect((await curate(dir, cacheDir)).reused).toBe(true)

    // a damaged section (CRC): ignored, computed again, the same plan
    const bytes = fs.readFileSync(file)
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] as number) ^ 0xff
    fs.writeFileSync(file, bytes)
    expect(await curate(dir, cacheDir)).toEqual({ plan: (await curate(dir, undefined)).plan, reused: false })

    // one skill changed by an editor: no longer the texts the pairs were found for
    fs.writeFileSync(path.join(dir, 'skill_3002.md'), skillFileText({ ...skills[1]!, body: POETRY.replace('moon', 'sun') }))
    const changed = await curate(dir, cacheDir)
    expect(changed).toEqual({ plan: (await curate(dir, undefined)).plan, reused: false })
    expect(changed.plan).not.toBe((await curate(makeLibrary(skills), undefined)).plan)
  })

  it('takes back only pairs that fit the key and the documents', async () => {
    const file = path.join(tempDir('pairs-file'), 'lib.pairs')
    const key = { corpus: corpusDigest(['k1', 'k2', 'k3'], true), threshold: 0.5, docs: 3 }
    const pairs = { count: 2, a: Uint32Array.of(0, 1), b: Uint32Array.of(1, 2), score: Float64Array.of(0.9, 0.5) }
    await savePairs(file, key, pairs)
    expect(loadPairs(file, key)).toEqual(pairs)
    expect(loadPairs(file, { ...key, corpus: corpusDigest(['k1', 'k2', 'k3'], false) })).toBeUndefined()
    expect(loadPairs(file, { ...key, corpus: corpusDigest(['k1', 'k3', 'k2'], true) })).toBeUndefined()
    expect(loadPairs(file, { ...key, threshold: 0.6 })).toBeUndefined()
    expect(loadPairs(file, { ...key, docs: 4 })).toBeUndefined()
    // a pair outside the documents, a pair listed backwards, a score under the threshold: the file is not used
    for (const bad of [{ ...pairs, b: Uint32Array.of(1, 3) }, { ...pairs, a: Uint32Array.of(1, 1) }, { ...pairs, score: Float64Array.of(0.9, 0.4) }]) {
      await savePairs(file, key, bad)
      expect(loadPairs(file, key)).toBeUndefined()
    }
    fs.writeFileSync(file, 'not a pairs file')
    expect(loadPairs(file, key)).toBeUndefined()
    expect(loadPairs(path.join(path.dirname(file), 'absent.pairs'), key)).toBeUndefined()
  })
})
