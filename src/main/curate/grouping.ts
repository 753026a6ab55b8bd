/**
 * Turning similar pairs into merge groups and consolidation clusters. Pure.
 */
import { clustersOf, dbscan, graphFromPairs } from '../cluster/dbscan'
import type { SimilarPairs } from '../text/all-pairs'

/**
 * Merge groups: greedy from the most similar pair down; a skill joins a group only when it is above the
 * threshold with every member (no chaining A~B~C where A and C differ) and the group has room.
 */
export function mergeGroups(
  pairs: SimilarPairs,
  eligible: (i: number) => boolean,
  similarity: (a: number, b: number) => number,
  threshold: number,
  maxGroup: number
): number[][] {
  const order: number[] = []
  for (let k = 0; k < pairs.count; k++) {
    if ((pairs.score[k] as number) > threshold && eligible(pairs.a[k] as number) && eligible(pairs.b[k] as number)) order.push(k)
  }
  order.sort((x, y) => (pairs.score[y] as number) - (pairs.score[x] as number) || x - y)
  const groupOf = new Map<number, number[]>()
  const groups: number[][] = []
  for (const k of order) {
    const a = pairs.a[k] as number
    const b = pairs.b[k] as number
    const ga = groupOf.get(a)
    const gb = groupOf.get(b)
    if (!ga && !gb) {
      const g = [a, b]
      groups.push(g)
      groupOf.set(a, g)
      groupOf.set(b, g)
      continue
    }
    if (ga && gb) continue
    const group = (ga ?? gb) as number[]
    const newcomer = ga ? b : a
    if (group.length >= maxGroup) continue
    if (group.every((m) => similarity(m, newcomer) > threshold)) {
      group.push(newcomer)
      groupOf.set(newcomer, group)
    }
  }
  for (const g of groups) g.sort((x, y) => x - y)
  return groups.sort((x, y) => (x[0] as number) - (y[0] as number))
}

export interface ClusterResult {
  clusters: number[][]
  /** Clusters still larger than the cap at the tightest eps tried (left out, reported). */
  oversized: number[][]
}

const EPS_STEP = 0.1
const EPS_FLOOR = 0.05

/** Edges of one clustering run: local point ids (ascending with the global ids) and cosine distances. */
interface Edges {
  /** Local point id → global id, ascending. */
  points: Uint32Array
  a: Uint32Array
  b: Uint32Array
  dist: Float64Array
  count: number
}

/**
 * DBSCAN clusters (noise dropped) among eligible points; any cluster above maxSize is re-clustered on
 * its own points with eps − 0.1, again and again, so a templated family splits into its tight sub-groups
 * instead of one giant proposal. The edges within eps are picked out of the pairs once; a re-clustering
 * runs on its cluster's own points and edges only (never the whole pair list again).
 */
export function consolidationClusters(
  n: number,
  pairs: SimilarPairs,
  eligible: (i: number) => boolean,
  eps: number,
  minSamples: number,
  maxSize: number
): ClusterResult {
  const clusters: number[][] = []
  const oversized: number[][] = []
  const run = (edges: Edges, e: number): void => {
    const { points, a, b, dist, count } = edges
    const m = points.length
    const labels = dbscan(graphFromPairs(m, a, b, count, (k) => (dist[k] as number) <= e), minSamples)
    const groups = clustersOf(labels)
    // A cluster's edges within the tighter eps, in pair order, for the ones that must be split again.
    const next = Math.round((e - EPS_STEP) * 1000) / 1000
    const split = e - EPS_STEP >= EPS_FLOOR - 1e-12
    const local = new Int32Array(m)
    const sub: Array<Edges | undefined> = groups.map((g) => {
      if (g.length < 2 || g.length <= maxSize || !split) return undefined
      g.forEach((p, i) => (local[p] = i))
      return { points: Uint32Array.from(g, (p) => points[p] as number), a: new Uint32Array(0), b: new Uint32Array(0), dist: new Float64Array(0), count: 0 }
    })
    if (sub.some((x) => x !== undefined)) {
      const sizes = new Uint32Array(groups.length)
      for (let k = 0; k < count; k++) {
        const l = labels[a[k] as number] as number
        if (l >= 0 && sub[l] && labels[b[k] as number] === l && (dist[k] as number) <= next) sizes[l] = (sizes[l] as number) + 1
      }
      sub.forEach((x, l) => {
        if (!x) return
        x.a = new Uint32Array(sizes[l] as number)
        x.b = new Uint32Array(sizes[l] as number)
        x.dist = new Float64Array(sizes[l] as number)
      })
      for (let k = 0; k < count; k++) {
        const l = labels[a[k] as number] as number
        const x = l >= 0 ? sub[l] : undefined
        if (!x || labels[b[k] as number] !== l || (dist[k] as number) > next) continue
        x.a[x.count] = local[a[k] as number] as number
        x.b[x.count] = local[b[k] as number] as number
        x.dist[x.count++] = dist[k] as number
      }
    }
    groups.forEach((g, l) => {
      if (g.length < 2) return
      const x = sub[l]
      if (x) run(x, next)
      else if (g.length <= maxSize) clusters.push(g.map((p) => points[p] as number))
      else oversized.push(g.map((p) => points[p] as number))
    })
  }
  // Every point takes part in the first run (ineligible ones have no edges, so they are noise or singletons).
  const top: Edges = { points: new Uint32Array(n), a: new Uint32Array(pairs.count), b: new Uint32Array(pairs.count), dist: new Float64Array(pairs.count), count: 0 }
  for (let i = 0; i < n; i++) top.points[i] = i
  for (let k = 0; k < pairs.count; k++) {
    const x = pairs.a[k] as number
    const y = pairs.b[k] as number
    const dist = 1 - (pairs.score[k] as number)
    if (!(dist <= eps && eligible(x) && eligible(y))) continue
    top.a[top.count] = x
    top.b[top.count] = y
    top.dist[top.count++] = dist
  }
  run(top, eps)
  clusters.sort((x, y) => (x[0] as number) - (y[0] as number))
  return { clusters, oversized }
}
