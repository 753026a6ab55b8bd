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

/**
 * DBSCAN clusters (noise dropped) among eligible points; any cluster above maxSize is re-clustered on
 * its own points with eps − 0.1, again and again, so a templated family splits into its tight sub-groups
 * instead of one giant proposal.
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
  const run = (members: ReadonlySet<number> | null, e: number): void => {
    const inside = (i: number): boolean => (members ? members.has(i) : eligible(i))
    const graph = graphFromPairs(n, pairs.a, pairs.b, pairs.count, (k) => {
      const a = pairs.a[k] as number
      const b = pairs.b[k] as number
      return 1 - (pairs.score[k] as number) <= e && inside(a) && inside(b)
    })
    const labels = dbscan(graph, minSamples)
    if (members) for (let i = 0; i < n; i++) if (!members.has(i)) labels[i] = -1
    for (const c of clustersOf(labels)) {
      if (c.length < 2 || !c.every(inside)) continue
      if (c.length <= maxSize) clusters.push(c)
      else if (e - EPS_STEP >= EPS_FLOOR - 1e-12) run(new Set(c), Math.round((e - EPS_STEP) * 1000) / 1000)
      else oversized.push(c)
    }
  }
  run(null, eps)
  clusters.sort((x, y) => (x[0] as number) - (y[0] as number))
  return { clusters, oversized }
}
