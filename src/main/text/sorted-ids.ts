/** Binary search over ascending ids in a typed array (postings are kept sorted by document id). Pure. */

/** The first position in the ascending ids[from, to) whose value is ≥ id (`to` when there is none). */
export function firstAtOrAfter(ids: Uint32Array, from: number, to: number, id: number): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((ids[mid] as number) < id) lo = mid + 1
    else hi = mid
  }
  return lo
}
