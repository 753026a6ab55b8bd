/** The first index in `items` (sorted by `keyOf`, ascending by code unit) whose key is not below `key`. */
export function lowerBound<T>(items: readonly T[], key: string, keyOf: (item: T) => string): number {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keyOf(items[mid]!) < key) lo = mid + 1
    else hi = mid
  }
  return lo
}
