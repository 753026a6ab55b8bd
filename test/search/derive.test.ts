/** The ranking arrays built incrementally (kept documents' counts from the previous postings) equal a full build bit for bit. */
import { describe, expect, it } from 'vitest'
import { deriveRanking, type DeriveDoc } from '../../src/main/search/derive'

let seed = 11
const rnd = (n: number): number => (seed = (seed * 16807) % 2147483647) % n

/** A document with distinct random terms of a vocabulary of `v` (in the order they came, as a tokenizer gives them). */
function doc(v: number): { terms: Uint32Array; counts: Uint32Array } {
  const seen = new Set<number>()
  const k = 1 + rnd(12)
  while (seen.size < k) seen.add(rnd(v))
  return { terms: Uint32Array.from(seen), counts: Uint32Array.from(seen, () => 1 + rnd(5)) }
}

describe('deriveRanking', () => {
  it('an incremental build after edits, additions, removals and retirements equals a full build of the same documents', () => {
    const v0 = 40
    const docs = Array.from({ length: 60 }, (_, i) => ({ active: i % 9 !== 4, ...doc(v0) }))
    for (const d of docs) if (!d.active) Object.assign(d, { terms: new Uint32Array(0), counts: new Uint32Array(0) })
    const first = deriveRanking(docs.map((d) => ({ ...d, prevId: -1 })), v0, null)
    // New terms join the vocabulary (ids 40..44); document 3 edited, 7 and 30 removed, 12 retired, two added.
    const v1 = v0 + 5
    const next: (DeriveDoc & { terms: Uint32Array; counts: Uint32Array })[] = []
    docs.forEach((d, i) => {
      if (i === 7 || i === 30) return
      if (i === 3) next.push({ active: true, prevId: -1, ...doc(v1) })
      else if (i === 12) next.push({ active: false, prevId: -1, terms: new Uint32Array(0), counts: new Uint32Array(0) })
      else next.push({ ...d, prevId: i })
      if (i === 20) next.push({ active: true, prevId: -1, ...doc(v1) })
    })
    next.push({ active: true, prevId: -1, ...doc(v1) })
    const full = deriveRanking(next.map((d) => ({ ...d, prevId: -1 })), v1, null)
    const incremental = deriveRanking(next.map((d) => (d.prevId >= 0 ? { active: d.active, prevId: d.prevId } : d)), v1, first)
    expect(incremental.active).toBe(full.active)
    for (const k of ['df', 'idf', 'norm', 'postPtr', 'postDoc', 'postCount'] as const) expect(Array.from(incremental[k])).toEqual(Array.from(full[k]))
    // And it really changed: the edited document's postings are new, the removed ones gone.
    expect(Array.from(incremental.postDoc)).not.toEqual(Array.from(first.postDoc))
  })

  it('equals a full build after files edited in place (kept documents at their ids), also when new terms appear', () => {
    const v0 = 30
    const docs = Array.from({ length: 80 }, () => ({ active: true, ...doc(v0) }))
    const first = deriveRanking(docs.map((d) => ({ ...d, prevId: -1 })), v0, null)
    for (const edited of [[5], [0, 79], [10, 11, 40, 41, 42], Array.from({ length: 70 }, (_, i) => i)]) {
      for (const v1 of [v0, v0 + 3]) {
        const next = docs.map((d, i) => (edited.includes(i) ? { active: i % 7 !== 3, prevId: -1, ...doc(v1) } : { ...d, prevId: i }))
        for (const d of next) if (!d.active) Object.assign(d, { terms: new Uint32Array(0), counts: new Uint32Array(0) })
        const full = deriveRanking(next.map((d) => ({ ...d, prevId: -1 })), v1, null)
        const incremental = deriveRanking(next.map((d) => (d.prevId >= 0 ? { active: d.active, prevId: d.prevId } : d)), v1, first)
        for (const k of ['df', 'idf', 'norm', 'postPtr', 'postDoc', 'postCount'] as const) expect(Array.from(incremental[k]), `${edited.length} edited, ${k}`).toEqual(Array.from(full[k]))
      }
    }
  })
})
