/** The name a person probably meant by a word they typed (pure): a command, an option, a deploy target. */

/** Edits (insert, delete, replace, swap of neighbours) between two short words. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

/** The one known name closest to `word` (a typo: at most 2 edits, fewer for short words, or a prefix), else undefined. */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const limit = word.length <= 4 ? 1 : 2
  let best: { name: string; d: number } | undefined
  for (const name of names) {
    const d = name.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word.toLowerCase(), name)
    if (d <= limit && (!best || d < best.d)) best = { name, d }
  }
  return best?.name
}
