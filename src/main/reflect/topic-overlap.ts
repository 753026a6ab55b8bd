/**
 * How much a later request of a session talks about the task before it (pure): the share of its words the open
 * task already used, forgiving typos ("plaform", "capaiblities": real requests are typed fast), and whether it
 * picks up a phrase of the turn just before it ("… draft the demo scenario" → "prepare a demo scenario").
 */

/** Words of a task, indexed by first letter and length so a typo's neighbours are found without a full scan. */
export class WordIndex {
  private readonly exact = new Set<string>()
  private readonly buckets = new Map<string, string[]>()

  add(word: string): void {
    if (!word || this.exact.has(word)) return
    this.exact.add(word)
    const key = bucketKey(word, word.length)
    const list = this.buckets.get(key)
    if (list) list.push(word)
    else this.buckets.set(key, [word])
  }

  /** The word itself, or one typo away (two for long words) with the same first letter. */
  has(word: string): boolean {
    if (this.exact.has(word)) return true
    const allowed = typoBudget(word)
    if (allowed === 0) return false
    for (let len = word.length - allowed; len <= word.length + allowed; len++) {
      for (const other of this.buckets.get(bucketKey(word, len)) ?? []) {
        if (typoBudget(other) > 0 && withinEdits(word, other, allowed)) return true
      }
    }
    return false
  }
}

/** Typos forgiven in a word: none under 5 letters (too many real words sit one letter apart), Han pairs never. */
function typoBudget(word: string): number {
  if (!/^[a-z]/.test(word) || word.length < 5) return 0
  return word.length >= 8 ? 2 : 1
}

function bucketKey(word: string, len: number): string {
  return `${word[0]}\u0000${len}`
}

/** Damerau–Levenshtein distance ≤ max (a swap of neighbours counts one), stopping early once a row exceeds it. */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false
  let prev2: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1)
      row.push(v)
      if (v < best) best = v
    }
    if (best > max) return false
    prev2 = prev
    prev = row
  }
  return prev[b.length]! <= max
}

/** Share of `words` the index holds (typos forgiven); 0 for no words. */
export function sharedShare(words: ReadonlySet<string>, index: WordIndex): number {
  if (words.size === 0) return 0
  let shared = 0
  for (const w of words) if (index.has(w)) shared++
  return shared / words.size
}

/** Two distinctive words in a row, within one sentence ('' in the list ends a sentence). */
function phrases(list: readonly string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i + 1 < list.length; i++) {
    const a = list[i]!
    const b = list[i + 1]!
    if (a && b && a !== b) out.push([a, b])
  }
  return out
}

/** Whether the request uses a phrase (two distinctive words in a row) that the previous turn used, typos forgiven. */
export function sharesPhrase(request: readonly string[], previousTurn: readonly string[]): boolean {
  const theirs = phrases(previousTurn)
  return phrases(request).some(([a, b]) => theirs.some(([x, y]) => sameWord(a, x) && sameWord(b, y)))
}

function sameWord(word: string, other: string): boolean {
  if (word === other) return true
  const allowed = Math.min(typoBudget(word), typoBudget(other))
  return allowed > 0 && word[0] === other[0] && withinEdits(word, other, allowed)
}
