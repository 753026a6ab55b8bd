import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allPairs, type SimilarPairs } from '../../src/main/text/all-pairs'
import { matchRows, pairsAtLeast, updatePairs, type EarlierJoin } from '../../src/main/text/pairs-update'
import { buildTfIdfIndex, type TfIdfIndex } from '../../src/main/text/tfidf'

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)
const build = (docs: readonly string[]): TfIdfIndex => buildTfIdfIndex(docs, { tokenizer: words, termOrder: 'df', rowDigests: true })

function record(index: TfIdfIndex, pairs: SimilarPairs, level: number): EarlierJoin {
  return { docs: index.docCount, vocab: index.vocab, df: index.df, digests: index.rowDigests!, level, pairs: () => pairs }
}

/** The pairs as "a-b" keys and their scores, leaving out those within rounding of the level. */
function away(p: SimilarPairs, level: number): { keys: string[]; scores: number[] } {
  const keys: string[] = []
  const scores: number[] = []
  for (let k = 0; k < p.count; k++) {
    if (Math.abs(p.score[k]! - level) <= 1e-9) continue
    keys.push(`${p.a[k]}-${p.b[k]}`)
    scores.push(p.score[k]!)
  }
  return { keys, scores }
}

function ascending(p: SimilarPairs): boolean {
  for (let k = 1; k < p.count; k++) if (!(p.a[k - 1]! < p.a[k]! || (p.a[k - 1] === p.a[k] && p.b[k - 1]! < p.b[k]!))) return false
  return true
}

// Edits a run of a library may see: a text changed, a skill added, one retired.
type Edit = { kind: 'change'; at: number; text: string } | { kind: 'add'; text: string } | { kind: 'remove'; at: number }

function applyEdit(docs: string[], e: Edit): string[] {
  if (docs.length === 0 && e.kind !== 'add') return docs
  const at = e.kind === 'add' ? 0 : e.at % docs.length
  if (e.kind === 'change') return docs.map((d, i) => (i === at ? e.text : d))
  if (e.kind === 'add') return [...docs, e.text]
  return docs.filter((_, i) => i !== at)
}

describe('updatePairs', () => {
  it('gives the pairs the whole join finds at its level, run after run of edits, additions and removals', () => {
    const word = fc.constantFrom('a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8', 'i9', 'j10', 'k11', 'l12', 'm13')
    const doc = fc.array(word, { minLength: 1, maxLength: 9 }).map((w) => w.join(' '))
    const edit: fc.Arbitrary<Edit> = fc.oneof(
      fc.record({ kind: fc.constant('change' as const), at: fc.nat(), text: doc }),
      fc.record({ kind: fc.constant('add' as const), text: doc }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat() })
    )
    let updated = 0
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 2, maxLength: 30 }),
        fc.array(fc.array(edit, { minLength: 0, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0.3, 0.5, 0.7),
        fc.constantFrom(0, 0.05, 0.2),
        fc.constantFrom(0.01, 0.1, 1),
        (start, runs, threshold, margin, maxDrift) => {
          let docs = start
          let index = build(docs)
          let earlier = record(index, allPairs(index, threshold - margin), threshold - margin)
          for (const edits of runs) {
            docs = edits.reduce(applyEdit, docs)
            if (docs.length < 2) return
            index = build(docs)
            const up = updatePairs(index, earlier, { threshold, maxDrift, maxWork: Infinity })
            if (!up) {
              // Refused only when the rows' drift would take the level past the threshold.
              index = build(docs)
              earlier = record(index, allPairs(index, threshold - margin), threshold - margin)
              continue
            }
            updated++
            expect(up.level).toBeGreaterThanOrEqual(earlier.level)
            expect(up.level).toBeLessThanOrEqual(threshold)
            expect(ascending(up.pairs)).toBe(true)
            const want = away(allPairs(index, up.level), up.level)
            const got = away(up.pairs, up.level)
            expect(got.keys).toEqual(want.keys)
            got.scores.forEach((s, k) => expect(s).toBeCloseTo(want.scores[k]!, 12))
            earlier = record(index, up.pairs, up.level)
          }
        }
      ),
      { numRuns: 300 }
    )
    // The property above must have exercised updates, not only refusals.
    expect(updated).toBeGreaterThan(200)
  })

  it('compares again only the changed rows when nothing else moved, and keeps the level', () => {
    const docs = ['alpha beta gamma', 'alpha beta gamma delta', 'beta gamma delta', 'omega psi', 'omega psi chi', 'chi psi']
    const index = build(docs)
    const earlier = record(index, allPairs(index, 0.3), 0.3)
    // One text gains a word no other skill has: only its own row is new.
    const edited = build(docs.map((d, i) => (i === 3 ? `${d} zeta` : d)))
    const up = updatePairs(edited, earlier, { threshold: 0.5, maxDrift: 0.01, maxWork: Infinity })!
    expect(up.rejoined).toBe(1)
    expect(up.rescored).toBe(0)
    expect(up.level).toBe(0.3)
    expect(away(up.pairs, 0.3).keys).toEqual(away(allPairs(edited, 0.3), 0.3).keys)
  })

  it('refuses when comparing rows again would be more work than allowed, or the drift passes the threshold', () => {
    const docs = Array.from({ length: 40 }, (_, i) => `w${i % 5} w${i % 7} common${i % 3} x${i}`)
    const index = build(docs)
    const earlier = record(index, allPairs(index, 0.4), 0.4)
    const edited = build(docs.map((d, i) => (i < 10 ? `${d} new${i}` : d)))
    expect(updatePairs(edited, earlier, { threshold: 0.5, maxDrift: 1, maxWork: 10 })).toBeUndefined()
    expect(updatePairs(edited, earlier, { threshold: 0.5, maxDrift: 1, maxWork: Infinity })).toBeDefined()
    // A skill added moves every idf: with no margin left between level and threshold, only the whole join will do.
    const grown = build([...docs, 'w1 w2 common0'])
    const atThreshold = record(index, allPairs(index, 0.5), 0.5)
    expect(updatePairs(grown, atThreshold, { threshold: 0.5, maxDrift: 1, maxWork: Infinity })).toBeUndefined()
  })

  it('matches identical rows one to one, whatever their positions', () => {
    const earlier = Uint32Array.of(1, 2, 5, 6, 1, 2, 9, 9)
    // rows now: (5,6), (1,2), (1,2), (1,2), (1,3)
    expect([...matchRows(Uint32Array.of(5, 6, 1, 2, 1, 2, 1, 2, 1, 3), earlier)]).toEqual([1, 0, 2, -1, -1])
  })

  it('keeps the pairs at or above a threshold in their order', () => {
    const p: SimilarPairs = { count: 4, a: Uint32Array.of(0, 0, 1, 2), b: Uint32Array.of(1, 3, 2, 3), score: Float64Array.of(0.5, 0.49, 0.9, 0.51) }
    const at = pairsAtLeast(p, 0.5)
    expect([...at.a]).toEqual([0, 1, 2])
    expect([...at.b]).toEqual([1, 2, 3])
    expect(pairsAtLeast(p, 0.4)).toBe(p)
  })
})
