/**
 * Template boilerplate removal for similarity work.
 *
 * Skills generated from one template (e.g. Composio's 832 "-automation" skills) share most of their
 * lines word for word; only a few lines name the service. Those shared lines say nothing about whether
 * two skills duplicate each other, yet they dominate TF-IDF cosine and chain every templated skill into
 * one giant cluster. A line found (normalised) in many documents is treated as boilerplate and left out.
 *
 * Most lines of a corpus are unique, so lines are first counted by a hash of their normalised text
 * computed from the character codes (no string per line); only lines whose hash is common enough are
 * normalised as strings and counted exactly. Equal normalised lines always have equal hashes, so the
 * hash count never under-counts a line and the result is exact.
 */

export interface BoilerplateOptions {
  /** A line is boilerplate when at least this many documents contain it (default 5)… */
  minDocs?: number
  /** …and at least this fraction of all documents (default 0.02). */
  minRatio?: number
}

/** Lines that carry no words (fences, rules, blank) are never counted. */
const HAS_WORD = /[\p{L}\p{N}]/u

function normaliseLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ').toLowerCase()
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
/** Marks a line without a letter or digit (never boilerplate). */
const NO_WORD = 0

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13)
}

/** FNV-1a over the char codes of a string (the hash of an already normalised line). */
function hashString(s: string): number {
  let h = FNV_OFFSET
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), FNV_PRIME)
  return h | 1
}

/**
 * Hash of normaliseLine(text[start, end)), or NO_WORD when the line has no letter or digit. Pure ASCII lines
 * are normalised on the fly (trim, whitespace runs → one space, A–Z → a–z) without building a string;
 * a line with any non-ASCII character is normalised as a string (Unicode whitespace and case rules).
 */
function lineHash(text: string, start: number, end: number): number {
  let h = FNV_OFFSET
  let word = false
  let pendingSpace = false
  let started = false
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c >= 128) {
      const line = normaliseLine(text.slice(start, end))
      return HAS_WORD.test(line) ? hashString(line) : NO_WORD
    }
    if (isAsciiSpace(c)) {
      pendingSpace = started
      continue
    }
    if (pendingSpace) {
      h = Math.imul(h ^ 32, FNV_PRIME)
      pendingSpace = false
    }
    started = true
    const lower = c >= 65 && c <= 90 ? c | 0x20 : c
    if ((lower >= 97 && lower <= 122) || (c >= 48 && c <= 57)) word = true
    h = Math.imul(h ^ lower, FNV_PRIME)
  }
  return word ? h | 1 : NO_WORD
}

/** Open-addressing count of documents per line hash (each document counted once per hash). */
class HashCounts {
  private mask = (1 << 14) - 1
  private keys = new Int32Array(this.mask + 1)
  private counts = new Int32Array(this.mask + 1)
  private lastDoc = new Int32Array(this.mask + 1)
  private used = 0

  add(h: number, doc: number): void {
    let slot = h & this.mask
    for (;;) {
      const k = this.keys[slot] as number
      if (k === h) {
        if (this.lastDoc[slot] !== doc) {
          this.lastDoc[slot] = doc
          this.counts[slot] = (this.counts[slot] as number) + 1
        }
        return
      }
      if (k === 0) break
      slot = (slot + 1) & this.mask
    }
    this.keys[slot] = h
    this.counts[slot] = 1
    this.lastDoc[slot] = doc
    if (++this.used * 2 > this.mask) this.grow()
  }

  get(h: number): number {
    let slot = h & this.mask
    for (;;) {
      const k = this.keys[slot] as number
      if (k === h) return this.counts[slot] as number
      if (k === 0) return 0
      slot = (slot + 1) & this.mask
    }
  }

  private grow(): void {
    const { keys, counts, lastDoc } = this
    this.mask = this.mask * 2 + 1
    this.keys = new Int32Array(this.mask + 1)
    this.counts = new Int32Array(this.mask + 1)
    this.lastDoc = new Int32Array(this.mask + 1)
    for (let s = 0; s < keys.length; s++) {
      const k = keys[s] as number
      if (k === 0) continue
      let slot = k & this.mask
      while (this.keys[slot] !== 0) slot = (slot + 1) & this.mask
      this.keys[slot] = k
      this.counts[slot] = counts[s] as number
      this.lastDoc[slot] = lastDoc[s] as number
    }
  }
}

/** Every line of every document (split on \n, as String.split would): its bounds and normalised-text hash. */
interface LineTable {
  /** Document d's lines are [docPtr[d], docPtr[d+1]). */
  docPtr: Uint32Array
  start: Uint32Array
  end: Uint32Array
  hash: Int32Array
  count: number
}

function lineTable(docs: readonly string[]): LineTable {
  let cap = Math.max(1024, docs.length * 8)
  let start = new Uint32Array(cap)
  let end = new Uint32Array(cap)
  let hash = new Int32Array(cap)
  const docPtr = new Uint32Array(docs.length + 1)
  let count = 0
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d] as string
    let s = 0
    for (;;) {
      const nl = doc.indexOf('\n', s)
      const e = nl < 0 ? doc.length : nl
      if (count === cap) {
        cap *= 2
        const ns = new Uint32Array(cap)
        ns.set(start)
        start = ns
        const ne = new Uint32Array(cap)
        ne.set(end)
        end = ne
        const nh = new Int32Array(cap)
        nh.set(hash)
        hash = nh
      }
      start[count] = s
      end[count] = e
      hash[count] = lineHash(doc, s, e)
      count++
      if (nl < 0) break
      s = nl + 1
    }
    docPtr[d + 1] = count
  }
  return { docPtr, start, end, hash, count }
}

interface Found {
  lines: Set<string>
  table: LineTable
  /** Per line: its hash reached the threshold (so it may be boilerplate and is worth normalising). */
  common: Uint8Array
}

function find(docs: readonly string[], options: BoilerplateOptions): Found {
  const threshold = Math.max(options.minDocs ?? 5, Math.ceil((options.minRatio ?? 0.02) * docs.length))
  const table = lineTable(docs)
  const counts = new HashCounts()
  for (let d = 0; d < docs.length; d++) {
    for (let k = table.docPtr[d] as number; k < (table.docPtr[d + 1] as number); k++) {
      const h = table.hash[k] as number
      if (h !== NO_WORD) counts.add(h, d)
    }
  }
  // Exact counts only for lines whose hash reached the threshold.
  const common = new Uint8Array(table.count)
  const df = new Map<string, number>()
  const seen = new Set<string>()
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d] as string
    seen.clear()
    for (let k = table.docPtr[d] as number; k < (table.docPtr[d + 1] as number); k++) {
      const h = table.hash[k] as number
      if (h === NO_WORD || counts.get(h) < threshold) continue
      common[k] = 1
      const line = normaliseLine(doc.slice(table.start[k], table.end[k]))
      if (seen.has(line)) continue
      seen.add(line)
      df.set(line, (df.get(line) ?? 0) + 1)
    }
  }
  const lines = new Set<string>()
  for (const [line, n] of df) if (n >= threshold) lines.add(line)
  return { lines, table, common }
}

/** The set of normalised lines that count as boilerplate in this corpus. */
export function findBoilerplateLines(docs: readonly string[], options: BoilerplateOptions = {}): Set<string> {
  return find(docs, options).lines
}

/** Each document without its boilerplate lines (documents of a small corpus come back unchanged). */
export function stripBoilerplate(docs: readonly string[], options: BoilerplateOptions = {}): string[] {
  const { lines, table, common } = find(docs, options)
  if (lines.size === 0) return [...docs]
  return docs.map((doc, d) => {
    // Kept lines are copied as runs of consecutive lines (one slice per run, not per line).
    const parts: string[] = []
    let runStart = -1
    let runEnd = -1
    let dropped = false
    for (let k = table.docPtr[d] as number; k < (table.docPtr[d + 1] as number); k++) {
      const s = table.start[k] as number
      const e = table.end[k] as number
      if (common[k] === 1 && lines.has(normaliseLine(doc.slice(s, e)))) {
        dropped = true
        if (runStart >= 0) parts.push(doc.slice(runStart, runEnd))
        runStart = -1
        continue
      }
      if (runStart < 0) runStart = s
      runEnd = e
    }
    if (!dropped) return doc
    if (runStart >= 0) parts.push(doc.slice(runStart, runEnd))
    return parts.join('\n')
  })
}
