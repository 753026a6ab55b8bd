/**
 * Term ids in the lexical order of their texts (UTF-16 code units, as `<` compares strings). A bilingual library's
 * vocabulary is mostly Chinese characters and pairs of them (100,000 terms at 3,000 skills, 258,000 at 20,000):
 * sorted with a comparator of strings it cost an index build ~0.1–0.3 s, the largest single step of a first curate
 * of such a library. Such texts of one or two code units are ordered exactly by a number made of those units, which
 * a typed array sorts natively; only texts sharing their first two units (longer words) are then compared as
 * strings, run by run. A vocabulary of mostly longer words (English) gains nothing from the numbers and is sorted by
 * the comparator alone. Pure.
 */

/** Positions fit below this in a key's low bits (2^20); a longer list is sorted by comparator. */
const POSITIONS = 1_048_576
/** Keys of a text's first code unit step by this; its second adds 1 … 65,536. */
const UNIT = 65_537

/** `ids` sorted by `texts[id]` in lexical order (a new array; ids of equal texts, which a dictionary never has, keep no set order). */
export function sortIdsByText(ids: readonly number[], texts: readonly string[]): number[] {
  const byText = (a: number, b: number): number => {
    const x = texts[a] as string
    const y = texts[b] as string
    return x < y ? -1 : x > y ? 1 : 0
  }
  const m = ids.length
  let short = 0
  for (let p = 0; p < m; p++) if ((texts[ids[p] as number] as string).length <= 2) short++
  if (m >= POSITIONS || 2 * short < m) return [...ids].sort(byText)
  // key: 0 for '', else (first unit + 1) × UNIT + (second unit + 1, or 0 when there is none): a shorter text sorts
  // before every longer one it starts, as with `<`. Key × 2^20 + position stays below 2^53 (exact in a double).
  const keys = new Float64Array(m)
  for (let p = 0; p < m; p++) {
    const s = texts[ids[p] as number] as string
    const k = s.length === 0 ? 0 : (s.charCodeAt(0) + 1) * UNIT + (s.length > 1 ? s.charCodeAt(1) + 1 : 0)
    keys[p] = k * POSITIONS + p
  }
  keys.sort()
  const out = new Array<number>(m)
  let start = 0
  while (start < m) {
    const k = Math.floor((keys[start] as number) / POSITIONS)
    let end = start + 1
    while (end < m && Math.floor((keys[end] as number) / POSITIONS) === k) end++
    for (let q = start; q < end; q++) out[q] = ids[(keys[q] as number) - k * POSITIONS] as number
    // Texts that share their first two units: ordered by the rest.
    if (end - start > 1) {
      const run = out.slice(start, end).sort(byText)
      for (let q = start; q < end; q++) out[q] = run[q - start] as number
    }
    start = end
  }
  return out
}
