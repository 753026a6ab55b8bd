import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clustersOf, dbscan, graphFromPairs, type NeighbourGraph } from '../../src/main/cluster/dbscan'

/** Neighbour graph of points on a line: neighbours when |x - y| ≤ eps. */
function lineGraph(xs: number[], eps: number): NeighbourGraph {
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      if (Math.abs(xs[i]! - xs[j]!) > eps) continue
      a.push(i)
      b.push(j)
    }
  }
  return graphFromPairs(xs.length, a, b, a.length)
}

/** Textbook DBSCAN from the definitions (union-find over core points), independent of the implementation. */
function reference(xs: number[], eps: number, minSamples: number): number[] {
  const n = xs.length
  const near = (i: number, j: number): boolean => Math.abs(xs[i]! - xs[j]!) <= eps
  const core = xs.map((_, i) => xs.filter((_, j) => near(i, j)).length >= minSamples)
  const parent = xs.map((_, i) => i)
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)))
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (core[i] && core[j] && near(i, j)) parent[find(i)] = find(j)
  const labelOfRoot = new Map<number, number>()
  const labels = xs.map(() => -1)
  for (let i = 0; i < n; i++) {
    if (!core[i]) continue
    const r = find(i)
    if (!labelOfRoot.has(r)) labelOfRoot.set(r, labelOfRoot.size)
    labels[i] = labelOfRoot.get(r)!
  }
  // A border point joins the lowest-numbered cluster among its core neighbours (clusters expand in label order).
  for (let i = 0; i < n; i++) {
    if (core[i]) continue
    const options = xs.map((_, j) => (core[j] && near(i, j) ? labels[j]! : Infinity))
    const best = Math.min(...options)
    if (best !== Infinity) labels[i] = best
  }
  return labels
}

describe('dbscan golden cases (worked by hand)', () => {
  it('two clusters and a noise point, min_samples 2', () => {
    expect(Array.from(dbscan(lineGraph([0, 1, 2, 10, 11, 20], 1.5), 2))).toEqual([0, 0, 0, 1, 1, -1])
  })

  it('min_samples 3: ends become border points, a pair becomes noise', () => {
    // 1 has {0,1,2} → core; 0 and 2 have 2 → border; 10/11 have 2 → noise.
    expect(Array.from(dbscan(lineGraph([0, 1, 2, 10, 11, 20], 1.5), 3))).toEqual([0, 0, 0, -1, -1, -1])
  })

  it('distance exactly eps counts as a neighbour (≤, like sklearn)', () => {
    expect(Array.from(dbscan(lineGraph([0, 5], 5), 2))).toEqual([0, 0])
    expect(Array.from(dbscan(lineGraph([0, 5.0001], 5), 2))).toEqual([-1, -1])
  })

  it('numbers clusters by lowest-index core point; a shared border point joins the first cluster expanded', () => {
    // B = 27..36 comes first in index order, border 18 touches 9 (A) and 27 (B), eps 9, min_samples 4.
    const xs = [27, 30, 33, 36, 18, 0, 3, 6, 9]
    expect(Array.from(dbscan(lineGraph(xs, 9), 4))).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1])
    // Same points, A first: the border point now belongs to A (label 0).
    const ys = [0, 3, 6, 9, 18, 27, 30, 33, 36]
    expect(Array.from(dbscan(lineGraph(ys, 9), 4))).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1])
  })

  it('a border point between two clusters stays in the first; the other cluster\'s core point keeps its own label', () => {
    // Found by the property run in CI: 7 is border to core 1 (cluster 0) and core 8 (cluster 1).
    expect(Array.from(dbscan(lineGraph([0, 1, 7, 8, 14, 0, 14], 6), 4))).toEqual([0, 0, 0, 1, 1, 0, 1])
  })

  it('min_samples 1 makes every point core; an empty input gives no labels', () => {
    expect(Array.from(dbscan(lineGraph([0, 10, 11], 2), 1))).toEqual([0, 1, 1])
    expect(Array.from(dbscan(graphFromPairs(0, [], [], 0), 2))).toEqual([])
  })

  it('rejects bad min_samples and pairs outside the range', () => {
    expect(() => dbscan(lineGraph([0], 1), 0)).toThrow(RangeError)
    expect(() => graphFromPairs(2, [0], [5], 1)).toThrow(RangeError)
  })

  it('clustersOf groups members by label and drops noise', () => {
    expect(clustersOf([1, 0, -1, 1, 0])).toEqual([[1, 4], [0, 3]])
  })
})

describe('dbscan properties', () => {
  const input = fc.record({
    xs: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 0, maxLength: 30 }),
    eps: fc.integer({ min: 0, max: 6 }),
    minSamples: fc.integer({ min: 1, max: 5 })
  })

  it('equals a textbook DBSCAN on the same distances', () => {
    fc.assert(
      fc.property(input, ({ xs, eps, minSamples }) => {
        expect(Array.from(dbscan(lineGraph(xs, eps), minSamples))).toEqual(reference(xs, eps, minSamples))
      }),
      { numRuns: 400 }
    )
  })

  // A border point next to two clusters belongs to only one of them, so only core-core neighbours must agree.
  it('every point is in exactly one cluster or noise; core neighbours share a cluster; a border point joins one of its core neighbours\' clusters', () => {
    fc.assert(
      fc.property(input, ({ xs, eps, minSamples }) => {
        const g = lineGraph(xs, eps)
        const labels = dbscan(g, minSamples)
        const clusters = clustersOf(labels)
        const members = clusters.flat().sort((a, b) => a - b)
        const noise = Array.from(labels.keys()).filter((i) => labels[i] === -1)
        expect([...members, ...noise].sort((a, b) => a - b)).toEqual(xs.map((_, i) => i))
        const neighboursOf = (p: number): number[] => Array.from(g.idx.subarray(g.ptr[p]!, g.ptr[p + 1]!))
        const isCore = (p: number): boolean => neighboursOf(p).length + 1 >= minSamples
        for (let p = 0; p < g.n; p++) {
          const coreNeighbours = neighboursOf(p).filter(isCore)
          if (isCore(p)) {
            expect(labels[p]).not.toBe(-1)
            for (const q of coreNeighbours) expect(labels[q]).toBe(labels[p])
          } else if (coreNeighbours.length > 0) {
            expect(coreNeighbours.map((q) => labels[q])).toContain(labels[p])
          } else {
            expect(labels[p]).toBe(-1)
          }
        }
        clusters.forEach((c) => expect(c.length).toBeGreaterThanOrEqual(1))
      }),
      { numRuns: 300 }
    )
  })

  it('is invariant to permuting the points, up to relabelling (core partition and noise set)', () => {
    fc.assert(
      fc.property(input, fc.infiniteStream(fc.nat()), ({ xs, eps, minSamples }, randoms) => {
        const perm = xs.map((_, i) => i)
        const it = randoms[Symbol.iterator]()
        for (let i = perm.length - 1; i > 0; i--) {
          const j = it.next().value! % (i + 1)
          ;[perm[i], perm[j]] = [perm[j]!, perm[i]!]
        }
        const g = lineGraph(xs, eps)
        const labels = dbscan(g, minSamples)
        const permuted = dbscan(lineGraph(perm.map((i) => xs[i]!), eps), minSamples)
        const isCore = (p: number): boolean => g.ptr[p + 1]! - g.ptr[p]! + 1 >= minSamples
        // Position k of the permuted run is original point perm[k].
        const back = new Int32Array(xs.length)
        perm.forEach((orig, k) => (back[orig] = permuted[k]!))
        for (let p = 0; p < xs.length; p++) {
          expect(back[p] === -1).toBe(labels[p] === -1)
          for (let q = 0; q < xs.length; q++) {
            if (isCore(p) && isCore(q)) expect(back[p] === back[q]).toBe(labels[p] === labels[q])
          }
        }
      }),
      { numRuns: 200 }
    )
  })
})
