/**
 * Names for the library map's clusters (pure). A cluster is named by the word of its titles that tells it apart:
 * the one much more common in the cluster's titles than in the whole library's (a TF-IDF score), so a word most
 * of the library shares ('automation' in a library of '<app>-automation' skills) names no cluster while a word of
 * the cluster's own does. Two named clusters never share a name when another word can tell them apart.
 */
import { CJK_CLASS, CJK_PARTICLES } from '../../../shared/cjk'

/** Words that name nothing (the map's titles are skill titles: 'skill' is one of them too). */
const STOP = new Set(['the', 'and', 'for', 'with', 'use', 'using', 'when', 'from', 'into', 'your', 'skill', 'skills'])
/** CJK scripts (shared/cjk.ts, as the search tokenizer reads them): a run of them is a word and gives its two-character pieces. */
const CJK = new RegExp(`[${CJK_CLASS}]`, 'u')
/** CJK runs and runs of other letters and digits; everything else (spaces, '-', '_', punctuation) separates words. */
const RUNS = new RegExp(`[${CJK_CLASS}]+|(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}])+`, 'gu')
/** Particles break a CJK run, as in the search tokenizer (shared/cjk.ts): 排序的方法 → 排序, 方法. */
const PARTICLES = new RegExp(`[${CJK_PARTICLES}]+`, 'u')

/**
 * The words of a title, lower-cased, each once: runs of letters and digits of 3+ letters that are not filler
 * words, and CJK runs of 2+ characters (split at particles) with their two-character pieces, as the search
 * tokenizer pairs CJK characters (部署超时 → 部署超时, 部署, 署超, 超时): two Chinese titles share the words
 * their characters share.
 */
export function titleWords(title: string): string[] {
  const out = new Set<string>()
  for (const run of title.toLowerCase().match(RUNS) ?? []) {
    if (!CJK.test(run)) {
      if ([...run].length >= 3 && !STOP.has(run)) out.add(run)
      continue
    }
    for (const piece of run.split(PARTICLES)) {
      const chars = [...piece]
      if (chars.length < 2) continue
      out.add(piece)
      if (chars.length > 2) for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!)
    }
  }
  return [...out]
}

/** How many of `titles` have each word. */
function documentCounts(titles: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const title of titles) for (const w of titleWords(title)) counts.set(w, (counts.get(w) ?? 0) + 1)
  return counts
}

interface Scored {
  word: string
  /** Titles of the cluster with the word. */
  count: number
  /** Share of the cluster's titles × log(library titles / library titles with it): 0 for a word every title has. */
  score: number
}

/** Best first: score, then more titles, then the longer word (a whole CJK run before its pieces), then code order. */
const better = (a: Scored, b: Scored): number =>
  b.score - a.score || b.count - a.count || [...b.word].length - [...a.word].length || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0)

/**
 * A cluster's words, best first (every word of its titles, each with its score against a library whose word
 * counts are `library` of `total` titles).
 */
function scoredWords(titles: readonly string[], library: ReadonlyMap<string, number>, total: number): Scored[] {
  const n = Math.max(1, titles.length)
  return [...documentCounts(titles).entries()]
    .map(([word, count]) => {
      const all = Math.max(count, library.get(word) ?? 0)
      const docs = Math.max(total, all)
      return { word, count, score: (count / n) * Math.log((docs + 1) / (all + 1)) }
    })
    .sort(better)
}

/** A word that can name a cluster: in 2+ of its titles and at least a third of them. */
const shared = (w: Scored, n: number): boolean => w.count >= 2 && w.count * 3 >= n

/**
 * Names of clusters, in the given order (their titles each): each the best shared word of its titles (in 2+ and
 * a third of them, best by score: more common in the cluster than in the `library`'s titles); else the word most
 * of its titles share even if every title of the library has it; else its first title, cut to fit a label by
 * `cut`. A name an earlier cluster has already taken goes to the next best word that differs; when no shared
 * word is left, to two words (the taken one and the cluster's best other word, in their order in a title);
 * else to the first of its titles not taken.
 */
export function clusterNames(clusters: readonly (readonly string[])[], library: readonly string[], cut: (title: string) => string = (t) => t): string[] {
  const counts = documentCounts(library)
  const taken = new Set<string>()
  return clusters.map((titles) => {
    const n = titles.length
    const words = scoredWords(titles, counts, library.length)
    const telling = words.filter((w) => w.score > 0 && shared(w, n))
    const majority = words.filter((w) => w.count >= 2 && w.count * 2 > n).sort((a, b) => b.count - a.count || better(a, b))
    const candidates = telling.length > 0 ? [...telling, ...majority.filter((w) => !telling.includes(w))] : majority
    let name = candidates.map((w) => grown(w.word, titles)).find((w) => !taken.has(w))
    if (name === undefined && candidates.length > 0) name = twoWords(grown(candidates[0]!.word, titles), words, titles, taken)
    name ??= titles.map(cut).find((t) => !taken.has(t)) ?? cut(titles[0] ?? '')
    taken.add(name)
    return name
  })
}

/**
 * A CJK word grown by the characters (not particles) every title with it has around it (计算 of 计算器加法 and
 * 计算器除法 → 计算器), as a two-character piece is seldom the whole word; other words as they are.
 */
function grown(word: string, titles: readonly string[]): string {
  if (!CJK.test(word)) return word
  const having = titles.map((t) => t.toLowerCase()).filter((t) => t.includes(word))
  const first = having[0]
  if (first === undefined) return word
  let out = word
  for (;;) {
    const at = first.indexOf(out)
    const after = [...first.slice(at + out.length)][0]
    const before = [...first.slice(0, at)].pop()
    const grows = (c: string | undefined): boolean => c !== undefined && CJK.test(c) && !PARTICLES.test(c)
    const next = [grows(after) ? out + after : '', grows(before) ? before + out : ''].find((w) => w && having.every((t) => t.includes(w)))
    if (!next) return out
    out = next
  }
}

/** `first` and the cluster's best other word, as they stand in the first title with both; undefined if taken too. */
function twoWords(first: string, words: readonly Scored[], titles: readonly string[], taken: ReadonlySet<string>): string | undefined {
  for (const other of words) {
    if (other.word === first || other.word.includes(first) || first.includes(other.word)) continue
    const title = titles.map((t) => t.toLowerCase()).find((t) => t.includes(first) && t.includes(other.word)) ?? ''
    const pair = title.indexOf(other.word) < title.indexOf(first) ? [other.word, first] : [first, other.word]
    const name = pair.join(' ')
    if (!taken.has(name)) return name
  }
  return undefined
}

/** One cluster's name against its own titles only (no library to compare with). */
export function clusterName(titles: readonly string[], cut?: (title: string) => string): string {
  return clusterNames([titles], titles, cut)[0] ?? ''
}
