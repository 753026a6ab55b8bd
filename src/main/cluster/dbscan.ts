/**
 * DBSCAN over precomputed neighbour lists, with scikit-learn's semantics:
 * - a point's neighbourhood includes itself; a core point has ≥ minSamples points in it;
 * - neighbours are points at distance ≤ eps (the caller builds the graph with that test);
 * - noise is labelled -1; clusters are numbered 0, 1, … in order of their lowest-index core point;
 * - a border point reachable from several clusters joins the first one expanded (as sklearn does).
 */

/** Undirected neighbour graph in CSR form (self excluded; each edge listed at both ends). */
export interface NeighbourGraph {
  n: number
  ptr: Uint32Array
  idx: Uint32Array
}

/** Builds the neighbour graph of n points from pair lists (a[k], b[k]), keeping pairs where keep(k) is true. */
export function graphFromPairs(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  count: number,
  keep: (k: number) => boolean = () => true
): NeighbourGraph {
  const degree = new Uint32Array(n + 1)
  for (let k = 0; k < count; k++) {
    if (!keep(k)) continue
    const x = a[k] as number
    const y = b[k] as number
    if (x === y) continue
    if (x < 0 || y < 0 || x >= n || y >= n) throw new RangeError(`pair (${x}, ${y}) outside 0..${n - 1}`)
    degree[x + 1] = (degree[x + 1] as number) + 1
    degree[y + 1] = (degree[y + 1] as number) + 1
  }
  const ptr = degree
  for (let i = 0; i < n; i++) ptr[i + 1] = (ptr[i + 1] as number) + (ptr[i] as number)
  const idx = new Uint32Array(ptr[n] as number)
  const fill = ptr.slice(0, n)
  for (let k = 0; k < count; k++) {
    if (!keep(k)) continue
    const x = a[k] as number
    const y = b[k] as number
    if (x === y) continue
    idx[fill[x] as number] = y
    fill[x] = (fill[x] as number) + 1
    idx[fill[y] as number] = x
    fill[y] = (fill[y] as number) + 1
  }
  return { n, ptr, idx }
}

/** DBSCAN labels (-1 = noise) for the points of `graph`; minSamples counts the point itself. */
export function dbscan(graph: NeighbourGraph, minSamples: number): Int32Array {
  if (!(Number.isInteger(minSamples) && minSamples >= 1)) throw new RangeError(`minSamples must be a positive integer, got ${minSamples}`)
  const { n, ptr, idx } = graph
  const labels = new Int32Array(n).fill(-1)
  const isCore = (p: number): boolean => (ptr[p + 1] as number) - (ptr[p] as number) + 1 >= minSamples
  const stack: number[] = []
  let label = 0
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1 || !isCore(start)) continue
    // Expand one cluster completely before the next one starts (sklearn's dbscan_inner).
    labels[start] = label
    stack.push(start)
    while (stack.length > 0) {
      const p = stack.pop() as number
      if (!isCore(p)) continue
      for (let q = ptr[p] as number; q < (ptr[p + 1] as number); q++) {
        const v = idx[q] as number
        if (labels[v] === -1) {
          labels[v] = label
          stack.push(v)
        }
      }
    }
    label++
  }
  return labels
}

/** Groups point indices by cluster label (noise left out), clusters in label order, members ascending. */
export function clustersOf(labels: ArrayLike<number>): number[][] {
  const clusters: number[][] = []
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as number
    if (l < 0) continue
    while (clusters.length <= l) clusters.push([])
    ;(clusters[l] as number[]).push(i)
  }
  return clusters
}
