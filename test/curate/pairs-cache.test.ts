import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CurationPlan } from '../../src/shared/types'
import { corpusDigest, loadPairs, pairsCacheFile, readPairsFile, savePairs as savePairsFile } from '../../src/main/curate/pairs-cache'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import type { CurationSettings } from '../../src/main/curate/settings'
import { termCacheFile } from '../../src/main/curate/term-cache'
import { translateText } from '../../src/renderer/i18n/messages-errors'
import { makeLibrary, pairedSkills, POETRY, skillFileText, tempDir } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const skills = pairedSkills('300')
const UNCHANGED = 'unchanged since the last run'
const UPDATED = 'updated since the last run'

const planJson = (plan: CurationPlan): string => JSON.stringify({ ...plan, created_at: undefined })

/** Curates `dir` (with the cache folder, when given) and says whether the join's pairs were taken back. */
async function curate(dir: string, cacheDir: string | undefined, settings: Partial<CurationSettings> = {}): Promise<{ plan: string; reused: boolean }> {
  const { plan, messages } = await curateWithMessages(dir, cacheDir, settings)
  return { plan, reused: messages.some((m) => m.includes(UNCHANGED)) }
}

async function curateWithMessages(dir: string, cacheDir: string | undefined, settings: Partial<CurationSettings> = {}): Promise<{ plan: string; messages: string[] }> {
  const messages: string[] = []
  const plan = await curateLibrary(await openForCuration(dir), { now: NOW, cacheDir, settings, onProgress: (p) => messages.push(p.message) })
  return { plan: planJson(plan), messages }
}

/** How the run compared skills: kept pairs, an update, or the whole join. */
function how(messages: readonly string[]): 'kept' | 'updated' | 'joined' {
  return messages.some((m) => m.includes(UNCHANGED)) ? 'kept' : messages.some((m) => m.includes(UPDATED)) ? 'updated' : 'joined'
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

  it('after edits, a skill added and one retired, the kept pairs are brought up to date: the plan is the one the whole join gives', async () => {
    const dir = makeLibrary(skills)
    const cacheDir = tempDir('pairs-cache-update')
    const run = async (): Promise<ReturnType<typeof how>> => {
      const { plan, messages } = await curateWithMessages(dir, cacheDir)
      expect(plan).toBe((await curate(dir, undefined)).plan)
      // What the run did with the pairs is said in a line of its own, in both languages.
      for (const m of messages.filter((m) => m.startsWith('Similar pairs') || m.startsWith('comparing skills ('))) expect(translateText(m, 'zh')).toMatch(/相似技能对|正在比较技能（/)
      return how(messages)
    }
    expect(await run()).toBe('joined') // a first run joins at the threshold
    // A line of words no other skill has: only that skill's row is new, nothing else moved.
    fs.appendFileSync(path.join(dir, 'skill_3002.md'), '\nZyxwv qutsr ponml.\n')
    expect(await run()).toBe('updated')
    // A skill added moves every idf (on a library this small, enough to compare every row again), another added, one
    // retired, a text changed with words other skills use: each plan is the whole join's.
    fs.writeFileSync(path.join(dir, 'skill_4001.md'), skillFileText({ ...skills[0]!, id: '4001', title: 'Added later', body: POETRY }))
    const after = [await run()]
    fs.writeFileSync(path.join(dir, 'skill_4002.md'), skillFileText({ ...skills[2]!, id: '4002', title: 'Added again', body: `${POETRY}\nThe moon again.` }))
    after.push(await run())
    fs.mkdirSync(path.join(dir, 'legacy'), { recursive: true })
    fs.renameSync(path.join(dir, 'skill_3002.md'), path.join(dir, 'legacy', 'skill_3002.md'))
    after.push(await run())
    fs.appendFileSync(path.join(dir, 'skill_3001.md'), '\nThe moon and the river.\n')
    after.push(await run())
    expect(after).toEqual(['updated', 'updated', 'updated', 'updated'])
    expect(await run()).toBe('kept')
  })

  it('takes back only pairs that fit the key and the documents', async () => {
    const file = path.join(tempDir('pairs-file'), 'lib.pairs')
    const key = { corpus: corpusDigest(['k1', 'k2', 'k3'], true), threshold: 0.5, docs: 3 }
    const pairs = { count: 2, a: Uint32Array.of(0, 1), b: Uint32Array.of(1, 2), score: Float64Array.of(0.9, 0.5) }
    const join = { docs: 3, vocab: ['moon', 'river'], df: Uint32Array.of(2, 1), digests: new Uint32Array(6).fill(7), level: 0.5, pairs: () => pairs }
    const savePairs = (f: string, k: typeof key, p: typeof pairs): Promise<void> => savePairsFile(f, k, { ...join, pairs: () => p })
    await savePairs(file, key, pairs)
    expect(loadPairs(file, key)).toEqual(pairs)
    // the whole join back for an update: its terms, their document frequencies, its rows' digests and level
    const back = readPairsFile(file, 0.5)!
    expect([back.vocab, [...back.df], [...back.digests], back.level]).toEqual([join.vocab, [...join.df], [...join.digests], 0.5])
    expect(readPairsFile(file, 0.6)).toBeUndefined()
    // its pairs are read when asked for, from the same file: one replaced since (another process) gives none
    const held = readPairsFile(file, 0.5)!
    expect(held.pairs()).toEqual(pairs)
    await savePairs(file, key, { ...pairs, score: Float64Array.of(0.95, 0.5) })
    expect(held.pairs()).toBeUndefined()
    expect(readPairsFile(file, 0.5)!.pairs()!.score[0]).toBe(0.95)
    // a level above the threshold, a join that does not fit its key: never used, never written
    await savePairsFile(file, key, { ...join, level: 0.55 })
    expect(readPairsFile(file, 0.5)).toBeUndefined()
    await expect(savePairsFile(file, key, { ...join, digests: new Uint32Array(4) })).rejects.toThrow(/does not fit/)
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
