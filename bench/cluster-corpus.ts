/**
 * Seeded synthetic skill corpus for the clustering bench (same recipe as measurements.md §5):
 * Markdown-like docs of ~320 words over a 20k-word vocabulary, Zipf s=1; 70% of words from a global
 * Zipf, 30% from one of 100 topic Zipfs (permuted ranks); ~2% near-duplicates (an earlier doc with 10%
 * of its words resampled). Words are built so that our tokenizer and scikit-learn's token pattern see
 * exactly the same terms (lowercase letters, no stop words, nothing Porter would stem).
 */

/** mulberry32: small, fast, seeded PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CONSONANTS = 'bdfgkmptz'
const VOWELS = 'aou'
const FINALS = 'kzxp'

/** `count` distinct synthetic words. */
export function syntheticVocab(count: number, random: () => number): string[] {
  const words = new Set<string>()
  while (words.size < count) {
    const syllables = 2 + Math.floor(random() * 2)
    let w = ''
    for (let s = 0; s < syllables; s++) {
      w += CONSONANTS[Math.floor(random() * CONSONANTS.length)]
      w += VOWELS[Math.floor(random() * VOWELS.length)]
    }
    w += FINALS[Math.floor(random() * FINALS.length)]
    words.add(w)
  }
  return [...words]
}

function zipfSampler(size: number, random: () => number): () => number {
  const cdf = new Float64Array(size)
  let sum = 0
  for (let r = 0; r < size; r++) {
    sum += 1 / (r + 1)
    cdf[r] = sum
  }
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = size - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cdf[mid] as number) < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

export interface Corpus {
  docs: string[]
  vocab: string[]
  /** Pairs (earlier, copy) planted as near-duplicates. */
  planted: Array<[number, number]>
}

/** Generates `n` documents deterministically from `seed`. */
export function generateCorpus(n: number, seed = 42): Corpus {
  const random = rng(seed)
  const vocab = syntheticVocab(20_000, random)
  const sample = zipfSampler(vocab.length, random)
  const topics = 100
  const perms: Uint32Array[] = []
  for (let t = 0; t < topics; t++) {
    const p = Uint32Array.from(vocab.keys())
    for (let i = p.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      const tmp = p[i] as number
      p[i] = p[j] as number
      p[j] = tmp
    }
    perms.push(p)
  }
  const wordsOf: string[][] = []
  const docs: string[] = []
  const planted: Array<[number, number]> = []
  const pick = (topic: number): string => {
    const r = sample()
    const id = random() < 0.7 ? r : ((perms[topic] as Uint32Array)[r] as number)
    return vocab[id] as string
  }
  for (let d = 0; d < n; d++) {
    const topic = Math.floor(random() * topics)
    let words: string[]
    if (d > 0 && random() < 0.02) {
      const src = Math.floor(random() * d)
      words = (wordsOf[src] as string[]).map((w) => (random() < 0.1 ? pick(topic) : w))
      planted.push([src, d])
    } else {
      const len = 250 + Math.floor(random() * 140)
      words = Array.from({ length: len }, () => pick(topic))
    }
    wordsOf.push(words)
    docs.push(render(words))
  }
  return { docs, vocab, planted }
}

/** Lays words out as a small Markdown document: a title, a description, headed sections with bullets. */
function render(words: string[]): string {
  const out: string[] = [`# ${words.slice(0, 4).join(' ')}`, '', words.slice(4, 20).join(' '), '']
  for (let i = 20; i < words.length; i += 40) {
    out.push(`## ${words.slice(i, i + 3).join(' ')}`, '')
    const body = words.slice(i + 3, i + 40)
    for (let j = 0; j < body.length; j += 12) out.push(`- ${body.slice(j, j + 12).join(' ')}`)
    out.push('')
  }
  return out.join('\n')
}
