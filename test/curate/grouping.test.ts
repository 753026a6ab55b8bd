import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { clustersOf, dbscan, graphFromPairs } from '../../src/main/cluster/dbscan'
import { consolidationClusters, mergeGroups } from '../../src/main/curate/grouping'
import type { SimilarPairs } from '../../src/main/text/all-pairs'

function pairsOf(list: Array<[number, number, number]>): { pairs: SimilarPairs; sim: (a: number, b: number) => number } {
  const m = new Map(list.map(([a, b, s]) => [`${Math.min(a, b)}-${Math.max(a, b)}`, s]))
  return {
    pairs: { count: list.length, a: Uint32Array.from(list.map((p) => p[0])), b: Uint32Array.from(list.map((p) => p[1])), score: Float64Array.from(list.map((p) => p[2])) },
    sim: (a, b) => m.get(`${Math.min(a, b)}-${Math.max(a, b)}`) ?? 0
  }
}
const all = (): boolean => true

describe('mergeGroups', () => {
  it('does not chain: C joins A+B only when it is above the threshold with both', () => {
    const { pairs, sim } = pairsOf([[0, 1, 0.95], [1, 2, 0.8], [0, 2, 0.5]])
    expect(mergeGroups(pairs, all, sim, 0.7, 5)).toEqual([[0, 1]])
    const clique = pairsOf([[0, 1, 0.95], [1, 2, 0.8], [0, 2, 0.75]])
    expect(mergeGroups(clique.pairs, all, clique.sim, 0.7, 5)).toEqual([[0, 1, 2]])
  })

  it('uses strictly greater than the threshold, respects the cap and eligibility', () => {
    const { pairs, sim } = pairsOf([[0, 1, 0.7], [2, 3, 0.9], [2, 4, 0.9], [3, 4, 0.9], [5, 6, 0.99]])
    expect(mergeGroups(pairs, all, sim, 0.7, 2)).toEqual([[2, 3], [5, 6]])
    expect(mergeGroups(pairs, (i) => i !== 5, sim, 0.7, 5)).toEqual([[2, 3, 4]])
  })
})

describe('consolidationClusters', () => {
  it('gives DBSCAN clusters on cosine distance ≤ eps, noise dropped', () => {
    const { pairs } = pairsOf([[0, 1, 0.6], [1, 2, 0.5], [3, 4, 0.49]])
    expect(consolidationClusters(6, pairs, all, 0.5, 2, 5)).toEqual({ clusters: [[0, 1, 2]], oversized: [] })
  })

  it('splits a cluster above the cap with tighter eps instead of proposing a giant one', () => {
    // A chain 0..7 at 0.55 joins everything at eps 0.5; tighter eps keeps the two 0.95 pairs.
    const chain: Array<[number, number, number]> = Array.from({ length: 7 }, (_, i) => [i, i + 1, 0.55] as [number, number, number])
    chain[1] = [1, 2, 0.95]
    chain[5] = [5, 6, 0.95]
    const { pairs } = pairsOf(chain)
    expect(consolidationClusters(8, pairs, all, 0.5, 2, 3)).toEqual({ clusters: [[1, 2], [5, 6]], oversized: [] })
  })

  it('reports clusters still too big at the tightest eps', () => {
    const list: Array<[number, number, number]> = []
    for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++) list.push([a, b, 0.99])
    const { pairs } = pairsOf(list)
    expect(consolidationClusters(6, pairs, all, 0.5, 2, 3)).toEqual({ clusters: [], oversized: [[0, 1, 2, 3, 4, 5]] })
  })
})

/** The rule written out plainly: DBSCAN over the whole pair list on every (re-)clustering. */
function plainClusters(n: number, pairs: SimilarPairs, eligible: (i: number) => boolean, eps: number, minSamples: number, maxSize: number): { clusters: number[][]; oversized: number[][] } {
  const clusters: number[][] = []
  const oversized: number[][] = []
  const run = (members: ReadonlySet<number> | null, e: number): void => {
    const inside = (i: number): boolean => (members ? members.has(i) : eligible(i))
    const graph = graphFromPairs(n, pairs.a, pairs.b, pairs.count, (k) => 1 - pairs.score[k]! <= e && inside(pairs.a[k]!) && inside(pairs.b[k]!))
    const labels = dbscan(graph, minSamples)
    if (members) for (let i = 0; i < n; i++) if (!members.has(i)) labels[i] = -1
    for (const c of clustersOf(labels)) {
      if (c.length < 2 || !c.every(inside)) continue
      if (c.length <= maxSize) clusters.push(c)
      else if (e - 0.1 >= 0.05 - 1e-12) run(new Set(c), Math.round((e - 0.1) * 1000) / 1000)
      else oversized.push(c)
    }
  }
  run(null, eps)
  clusters.sort((x, y) => x[0]! - y[0]!)
  return { clusters, oversized }
}

describe('consolidationClusters on a cluster’s own edges', () => {
  it('gives exactly what re-clustering over the whole pair list gives', () => {
    const n = 24
    const pair = fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }), fc.double({ min: 0.3, max: 1, noNaN: true }))
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 120 }), fc.array(fc.boolean(), { minLength: n, maxLength: n }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 2, max: 6 }), (list, ok, minSamples, maxSize) => {
        const seen = new Set<string>()
        const unique = list.filter(([a, b]) => a < b && !seen.has(`${a}-${b}`) && seen.add(`${a}-${b}`))
        const { pairs } = pairsOf(unique)
        const eligible = (i: number): boolean => ok[i]!
        expect(consolidationClusters(n, pairs, eligible, 0.5, minSamples, maxSize)).toEqual(plainClusters(n, pairs, eligible, 0.5, minSamples, maxSize))
      }),
      { numRuns: 400 }
    )
  })
})
