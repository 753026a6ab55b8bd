import fc from 'fast-check'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { allPairs, allPairsAsync, prepareJoin, type SimilarPairs } from '../../src/main/text/all-pairs'
import { arenaOf, JoinArena } from '../../src/main/text/join-arena'
import { JOIN_KERNEL_WASM } from '../../src/main/text/join-kernel-wasm'
import { buildTfIdfIndex, buildTfIdfIndexAsync } from '../../src/main/text/tfidf'
import { similarityParts } from '../../src/main/curate/proposals'
import { openLibrary } from '../../src/main/store/library'
import { tempDir } from '../curate/fixtures'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { assemble } = require('../../scripts/build-join-kernel.cjs') as { assemble: () => Promise<Buffer> }

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)
const same = (a: SimilarPairs, b: SimilarPairs): boolean => {
  if (a.count !== b.count) return false
  for (let k = 0; k < a.count; k++) if (a.a[k] !== b.a[k] || a.b[k] !== b.b[k] || a.score[k] !== b.score[k]) return false
  return true
}

describe('the WebAssembly join kernel', () => {
  it('is the assembled join-kernel.wat (run `node scripts/build-join-kernel.cjs` after editing it)', async () => {
    expect(fs.existsSync(path.join(__dirname, '../../src/main/text/join-kernel.wat'))).toBe(true)
    expect((await assemble()).toString('base64')).toBe(JOIN_KERNEL_WASM)
  })

  it('builds the index and the join in one arena', () => {
    const arena = JoinArena.create()!
    const index = buildTfIdfIndex(['alpha beta gamma', 'alpha beta delta', 'gamma delta epsilon', 'alpha beta gamma delta'], { tokenizer: words, termOrder: 'df', arena })
    for (const a of [index.colIdx, index.values, index.postDoc, index.postVal]) expect(arenaOf(a)).toBe(arena)
    const prepared = prepareJoin(index, 0.5)
    expect(prepared.arena).toBe(arena)
    for (const name of ['rowPtr', 'split', 'rarePos', 'postPtr', 'freqNorm'] as const) expect(arenaOf(prepared.data[name]), name).toBe(arena)
    // An arena too small for the index: its arrays go to shared memory of their own, and the join to JavaScript.
    const full = JoinArena.create(1 << 20)!
    expect(full.alloc(Float64Array, 1 << 17)).toBeDefined()
    expect(full.alloc(Float64Array, 1)).toBeUndefined()
    const outside = buildTfIdfIndex(['alpha beta gamma', 'alpha beta delta'], { tokenizer: words, termOrder: 'df', arena: full })
    expect(arenaOf(outside.colIdx)).toBeUndefined()
    expect(prepareJoin(outside, 0.5).arena).toBeUndefined()
  })

  it('finds the same pairs with the same scores, to the last bit, as the JavaScript kernel', async () => {
    const word = fc.constantFrom('a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8', 'i9', 'j10', 'k11', 'l12')
    const doc = fc.array(word, { minLength: 0, maxLength: 12 }).map((w) => w.join(' '))
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 2, maxLength: 120 }), fc.constantFrom(0.2, 0.5, 0.8, 1), fc.integer({ min: 0, max: 60 }), async (docs, threshold, frequentDf) => {
        const want = allPairs(buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df' }), threshold, { frequentDf })
        const arena = JoinArena.create()!
        const got = await allPairsAsync(buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df', arena }), threshold, { frequentDf, workers: 2 })
        expect(got.kernel).toBe('webassembly')
        expect(same(got, want)).toBe(true)
      }),
      { numRuns: 40 }
    )
  })

  it('stops when aborted, and the same index joins again afterwards', async () => {
    const docs = Array.from({ length: 3000 }, (_, i) => `w${i % 7} w${i % 11} w${i % 13} common${i % 3}`)
    const index = buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df', arena: JoinArena.create()! })
    const controller = new AbortController()
    const pending = allPairsAsync(index, 0.05, { workers: 2, signal: controller.signal })
    controller.abort(new Error('cancelled'))
    await expect(pending).rejects.toThrow('cancelled')
    const again = await allPairsAsync(index, 0.5, { workers: 2 })
    expect(again.kernel).toBe('webassembly')
    expect(same(again, allPairs(buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df' }), 0.5))).toBe(true)
  })

  it('handles rows with over a thousand pairs each', async () => {
    const docs = Array.from({ length: 1300 }, (_, i) => ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].filter((_, k) => (i >> k) % 2 === 0 || k === i % 6).join(' '))
    const want = allPairs(buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df' }), 0.2)
    expect(want.count).toBeGreaterThan(500_000)
    const got = await allPairsAsync(buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df', arena: JoinArena.create()! }), 0.2, { workers: 2 })
    expect(got.kernel).toBe('webassembly')
    expect(same(got, want)).toBe(true)
    // Without an arena the workers run the JavaScript kernel, to the same pairs.
    const plain = await allPairsAsync(buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df' }), 0.2, { workers: 2 })
    expect(plain.kernel).toBe('javascript')
    expect(same(plain, want)).toBe(true)
  })

  it.skipIf(!HAS_REAL_DATA)('finds the same pairs as the JavaScript kernel on real SKILL.md corpora', async () => {
    // Read from a copy: a listing never writes, but the real data is never handed to the store directly.
    const dir = tempDir('join-kernel-real')
    for (const corpus of ['anthropics_skills', 'composiohq_awesome-claude-skills']) fs.cpSync(realPath('skills', corpus), path.join(dir, corpus), { recursive: true })
    const skills = (await (await openLibrary(dir)).list()).skills
    expect(skills.length).toBeGreaterThan(100)
    const docs = skills.map(similarityParts)
    // As curation builds them: boilerplate out, terms by document frequency.
    const plain = await buildTfIdfIndexAsync(docs, { boilerplate: {}, termOrder: 'df' })
    const inArena = await buildTfIdfIndexAsync(docs, { boilerplate: {}, termOrder: 'df', arena: JoinArena.create()! })
    for (const threshold of [0.3, 0.5, 0.7]) {
      const want = await allPairsAsync(plain, threshold, { workers: 2 })
      const got = await allPairsAsync(inArena, threshold, { workers: 2 })
      expect(got.kernel).toBe('webassembly')
      expect(want.kernel).toBe('javascript')
      expect(want.count).toBeGreaterThan(0)
      expect(same(got, want)).toBe(true)
    }
  }, 60_000)
})
