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

/**
 * The shape of a generated corpus. `BENCH_SHAPE` is the one above (measurements.md §5); docs/BENCH.md's "Other
 * shapes" section adds issue 40's (a larger vocabulary, fewer topics: more similar pairs) and short bilingual skills.
 */
export interface CorpusShape {
  /** Distinct words (Zipf s=1 over them). */
  vocab: number
  /** Topic Zipfs (the same vocabulary, ranks permuted): fewer topics, more documents alike. */
  topics: number
  /** Share of a document's words drawn from its topic rather than the global Zipf. */
  topicShare: number
  /** Words per document: `minWords` plus up to `spreadWords` more. */
  minWords: number
  spreadWords: number
  /** Share of documents that are an earlier one with 10 % of its words resampled. */
  duplicates: number
  /** Share of documents written in (synthetic) Chinese: words of 1–3 CJK characters, no spaces between them. */
  chineseShare?: number
}

export const BENCH_SHAPE: CorpusShape = { vocab: 20_000, topics: 100, topicShare: 0.3, minWords: 250, spreadWords: 140, duplicates: 0.02 }

/** The other shapes `npm run bench -- shapes` curates and queries (bench/shapes.bench.ts). */
export const OTHER_SHAPES: Record<string, { shape: CorpusShape; about: string }> = {
  zipf: {
    shape: { vocab: 30_000, topics: 25, topicShare: 0.3, minWords: 250, spreadWords: 100, duplicates: 0.02 },
    about: 'issue 40: ~300 words from a 30,000-word Zipf vocabulary plus 25 topics, 2 % near-duplicates'
  },
  bilingual: {
    shape: { vocab: 30_000, topics: 50, topicShare: 0.3, minWords: 40, spreadWords: 120, duplicates: 0.03, chineseShare: 0.5 },
    about: 'short skills (40–160 words), half in Chinese (words of 1–3 characters of a Zipf law over 2,500, no spaces), 50 topics, 3 % near-duplicates'
  }
}

/**
 * `count` distinct synthetic Chinese words of 1–3 characters from 2,500 CJK ideographs (none a particle), the
 * characters drawn by a Zipf law as in real text (a few hundred characters make most of it).
 */
export function syntheticChineseVocab(count: number, random: () => number): string[] {
  const particles = new Set([...'的地得了着是在和与及或把被也都就又很吗呢吧啊'])
  const chars: string[] = []
  for (let c = 0x4e00; chars.length < 2500; c += 7) if (!particles.has(String.fromCharCode(c))) chars.push(String.fromCharCode(c))
  const char = zipfSampler(chars.length, random)
  const words = new Set<string>()
  while (words.size < count) {
    const r = random()
    const len = r < 0.1 ? 1 : r < 0.85 ? 2 : 3
    let w = ''
    for (let i = 0; i < len; i++) w += chars[char()]
    words.add(w)
  }
  return [...words]
}

/** Generates `n` documents deterministically from `seed`, in `shape` (the clustering bench's own by default). */
export function generateCorpus(n: number, seed = 42, shape: CorpusShape = BENCH_SHAPE): Corpus {
  const random = rng(seed)
  const vocab = syntheticVocab(shape.vocab, random)
  const sample = zipfSampler(vocab.length, random)
  const topics = shape.topics
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
  const chineseShare = shape.chineseShare ?? 0
  // Drawn only for shapes with Chinese, so the default shape's documents stay those of earlier runs.
  const zhVocab = chineseShare > 0 ? syntheticChineseVocab(shape.vocab, random) : []
  const wordsOf: string[][] = []
  const chineseOf: boolean[] = []
  const docs: string[] = []
  const planted: Array<[number, number]> = []
  const pick = (topic: number, chinese: boolean): string => {
    const r = sample()
    const id = random() < 1 - shape.topicShare ? r : ((perms[topic] as Uint32Array)[r] as number)
    return (chinese ? zhVocab : vocab)[id] as string
  }
  for (let d = 0; d < n; d++) {
    const topic = Math.floor(random() * topics)
    let words: string[]
    let chinese = chineseShare > 0 && random() < chineseShare
    if (d > 0 && random() < shape.duplicates) {
      const src = Math.floor(random() * d)
      chinese = chineseOf[src] as boolean
      words = (wordsOf[src] as string[]).map((w) => (random() < 0.1 ? pick(topic, chinese) : w))
      planted.push([src, d])
    } else {
      const len = shape.minWords + Math.floor(random() * shape.spreadWords)
      words = Array.from({ length: len }, () => pick(topic, chinese))
    }
    wordsOf.push(words)
    chineseOf.push(chinese)
    docs.push(render(words, chinese ? '' : ' '))
  }
  return { docs, vocab, planted }
}

/** Lays words out as a small Markdown document: a title, a description, headed sections with bullets. */
function render(words: string[], sep: string): string {
  const out: string[] = [`# ${words.slice(0, 4).join(sep)}`, '', words.slice(4, 20).join(sep), '']
  for (let i = 20; i < words.length; i += 40) {
    out.push(`## ${words.slice(i, i + 3).join(sep)}`, '')
    const body = words.slice(i + 3, i + 40)
    for (let j = 0; j < body.length; j += 12) out.push(`- ${body.slice(j, j + 12).join(sep)}`)
    out.push('')
  }
  return out.join('\n')
}
