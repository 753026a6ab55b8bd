/**
 * The strongest pairs of a join, for drawing (pure): the same pairs, in the same order, as a stable sort of all of
 * them by score (highest first, ties in pair order) cut to `max` — without sorting them all. A 1,000-skill map has
 * ~250,000 pairs at its edge threshold: that sort held the app server's event loop ~200 ms (this: ~50 ms) while the
 * first screen waited for its answers.
 */
import type { SimilarPairs } from './all-pairs'

/** Indices into `pairs`: the `max` highest scores, highest first, equal scores in ascending index order. */
export function strongestPairs(pairs: Pick<SimilarPairs, 'count' | 'score'>, max: number): number[] {
  const n = pairs.count
  const take = Math.max(0, Math.min(n, Math.floor(max)))
  if (take === 0) return []
  // The take-th highest score (a native sort of the scores alone), then every pair above it and, in index order,
  // as many pairs at it as still fit.
  const cutoff = take === n ? -Infinity : (Float64Array.from(pairs.score.subarray(0, n)).sort()[n - take] as number)
  const out: number[] = []
  let atCutoff = take
  for (let k = 0; k < n; k++) if ((pairs.score[k] as number) > cutoff) atCutoff--
  for (let k = 0; k < n; k++) {
    const s = pairs.score[k] as number
    if (s > cutoff || (s === cutoff && atCutoff-- > 0)) out.push(k)
  }
  // Array.prototype.sort is stable: equal scores keep ascending index order.
  return out.sort((x, y) => (pairs.score[y] as number) - (pairs.score[x] as number))
}
