/**
 * Template boilerplate removal for similarity work.
 *
 * Skills generated from one template (e.g. Composio's 832 "-automation" skills) share most of their
 * lines word for word; only a few lines name the service. Those shared lines say nothing about whether
 * two skills duplicate each other, yet they dominate TF-IDF cosine and chain every templated skill into
 * one giant cluster. A line found (normalised: trimmed, whitespace runs → one space, lowercase) in many
 * documents is treated as boilerplate and left out.
 *
 * Most lines of a corpus are unique, so lines are first counted by a key: a hash that equal normalised lines
 * always share (it folds the hashes of the line's word runs, which the index builder computes anyway while it
 * tokenizes, so keys cost almost nothing there). Keys are counted per document in a direct-mapped table:
 * lines whose keys share a slot share its counter, which therefore never counts fewer documents than any of
 * its lines is in. Only lines whose counter reaches the threshold are normalised as strings and counted
 * exactly, so the result is exact — and when no counter reaches it, nothing else is done at all.
 */
import { resized } from './typed-arrays'

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
/** The key of a line without a letter or digit (never boilerplate). */
export const NO_WORD = 0

/**
 * A line's key from the FNV-1a hashes of its word runs, in order: runs of [a-z0-9] (ASCII letters
 * lowercased) or of non-ASCII characters; everything else separates runs. Case and whitespace never change a
 * run, so equal normalised lines get equal keys. Start from FNV_OFFSET, fold each run, finish with lineKeyEnd.
 */
function foldRun(key: number, runHash: number): number {
  return Math.imul(key ^ runHash, FNV_PRIME)
}

/** The finished key (never NO_WORD) of a line that had at least one run. */
function lineKeyEnd(key: number): number {
  return key | 1
}

/** Key of any line (normalised as a string first: Unicode whitespace and case rules). */
export function lineKey(line: string): number {
  const norm = normaliseLine(line)
  if (!HAS_WORD.test(norm)) return NO_WORD
  let key = FNV_OFFSET
  let h = 0
  let inRun = false
  for (let k = 0; k < norm.length; k++) {
    const c = norm.charCodeAt(k)
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c >= 128) {
      h = Math.imul((inRun ? h : FNV_OFFSET) ^ c, FNV_PRIME)
      inRun = true
    } else if (inRun) {
      key = foldRun(key, h)
      inRun = false
    }
  }
  if (inRun) key = foldRun(key, h)
  return lineKeyEnd(key)
}

/** Line keys of many documents: line k starts at `start[k]` of its document (it ends at the next \n). */
export class LineKeys {
  key: Int32Array
  start: Uint32Array
  count = 0

  /** `capacity`: the expected number of lines (it grows when there are more). */
  constructor(capacity = 4096) {
    this.key = new Int32Array(Math.max(16, capacity))
    this.start = new Uint32Array(this.key.length)
  }

  push(key: number, start: number): void {
    if (this.count === this.key.length) this.grow(this.count + 1)
    this.key[this.count] = key
    this.start[this.count++] = start
  }

  /** Appends lines [from, to) of other arrays (keys and starts as push takes them). */
  pushAll(keys: Int32Array, starts: Uint32Array, from: number, to: number): void {
    const need = this.count + (to - from)
    if (need > this.key.length) this.grow(need)
    this.key.set(keys.subarray(from, to), this.count)
    this.start.set(starts.subarray(from, to), this.count)
    this.count = need
  }

  /** Room for `need` lines at least (doubling, so pushes one by one stay cheap). */
  private grow(need: number): void {
    const size = Math.max(need, this.key.length * 2)
    this.key = resized(this.key, size, this.count)
    this.start = resized(this.start, size, this.count)
  }
}

/** The line of `doc` that starts at `start`. */
export function lineAt(doc: string, start: number): string {
  const end = doc.indexOf('\n', start)
  return doc.slice(start, end < 0 ? doc.length : end)
}

/** The text of line k (of document `doc`, as recorded in `lines`). */
export function lineText(doc: string, lines: LineKeys, k: number): string {
  return lineAt(doc, lines.start[k] as number)
}

/** Documents a line must be in to be boilerplate. */
function thresholdOf(docCount: number, options: BoilerplateOptions): number {
  return Math.max(options.minDocs ?? 5, Math.ceil((options.minRatio ?? 0.02) * docCount))
}

/** Slot of a key in the counter table (high bits folded in: FNV's low bits alone mix poorly). */
function slotOf(key: number, mask: number): number {
  return (key ^ (key >>> 15)) & mask
}

/**
 * Which lines are boilerplate (1) — exact — given every document's line keys (document d's lines are
 * [linePtr[d], linePtr[d+1]) of `lines`); null when none is. `lineOf(d, start)`: the line of document d that
 * starts at `start`, asked for only where a line may be boilerplate. `flaggedLines`, when given, receives the text of
 * every flagged line in line order (as lineOf gave it: a caller that needs them again need not cut them out again).
 */
export function boilerplateFlags(
  docCount: number,
  lineOf: (d: number, start: number) => string,
  lines: LineKeys,
  linePtr: Uint32Array,
  options: BoilerplateOptions = {},
  flaggedLines?: string[]
): Uint8Array | null {
  const threshold = thresholdOf(docCount, options)
  if (docCount < threshold) return null
  // Direct-mapped counters: slot s holds [documents counted, last document + 1]. Lines sharing a slot add up, so a
  // slot can pass the threshold without one line doing so (the exact count below sorts that out); with about
  // threshold / 8 lines per slot that is rare, and the table stays small enough to stay in cache.
  const wanted = Math.ceil((8 * lines.count) / threshold)
  let size = 1 << 12
  while (size < wanted && size < 1 << 21) size <<= 1
  const mask = size - 1
  const counters = new Int32Array(size * 2)
  let reached = false
  for (let d = 0; d < docCount; d++) {
    for (let k = linePtr[d] as number; k < (linePtr[d + 1] as number); k++) {
      const key = lines.key[k] as number
      if (key === NO_WORD) continue
      const s = 2 * slotOf(key, mask)
      if (counters[s + 1] === d + 1) continue
      counters[s + 1] = d + 1
      const n = (counters[s] as number) + 1
      counters[s] = n
      if (n >= threshold) reached = true
    }
  }
  if (!reached) return null
  // Exact document counts, only for lines whose counter reached the threshold.
  const candidates: number[] = []
  const texts: string[] = []
  const raws: string[] = []
  const df = new Map<string, number>()
  const seen = new Set<string>()
  // Boilerplate repeats word for word: each distinct raw line is normalised once.
  const normalised = new Map<string, string>()
  for (let d = 0; d < docCount; d++) {
    seen.clear()
    for (let k = linePtr[d] as number; k < (linePtr[d + 1] as number); k++) {
      const key = lines.key[k] as number
      if (key === NO_WORD || (counters[2 * slotOf(key, mask)] as number) < threshold) continue
      const raw = lineOf(d, lines.start[k] as number)
      let line = normalised.get(raw)
      if (line === undefined) {
        line = normaliseLine(raw)
        normalised.set(raw, line)
      }
      candidates.push(k)
      texts.push(line)
      if (flaggedLines) raws.push(raw)
      if (seen.has(line)) continue
      seen.add(line)
      df.set(line, (df.get(line) ?? 0) + 1)
    }
  }
  let flags: Uint8Array | null = null
  candidates.forEach((k, c) => {
    if ((df.get(texts[c] as string) as number) < threshold) return
    flags ??= new Uint8Array(lines.count)
    flags[k] = 1
    flaggedLines?.push(raws[c] as string)
  })
  return flags
}

/** Keys of every line of every document (the plain way: one string per line; the index builder has a faster one). */
function keysOf(docs: readonly string[]): { lines: LineKeys; linePtr: Uint32Array } {
  const lines = new LineKeys()
  const linePtr = new Uint32Array(docs.length + 1)
  docs.forEach((doc, d) => {
    let start = 0
    for (;;) {
      const end = doc.indexOf('\n', start)
      lines.push(lineKey(doc.slice(start, end < 0 ? doc.length : end)), start)
      if (end < 0) break
      start = end + 1
    }
    linePtr[d + 1] = lines.count
  })
  return { lines, linePtr }
}

/** The set of normalised lines that count as boilerplate in this corpus. */
export function findBoilerplateLines(docs: readonly string[], options: BoilerplateOptions = {}): Set<string> {
  const { lines, linePtr } = keysOf(docs)
  const flagged: string[] = []
  boilerplateFlags(docs.length, (d, start) => lineAt(docs[d] as string, start), lines, linePtr, options, flagged)
  return new Set(flagged.map(normaliseLine))
}

/** Each document without its boilerplate lines (documents without any come back as the same strings). */
export function stripBoilerplate(docs: readonly string[], options: BoilerplateOptions = {}): string[] {
  const { lines, linePtr } = keysOf(docs)
  const flags = boilerplateFlags(docs.length, (d, start) => lineAt(docs[d] as string, start), lines, linePtr, options)
  if (!flags) return [...docs]
  return docs.map((doc, d) => {
    const kept: string[] = []
    let dropped = false
    for (let k = linePtr[d] as number; k < (linePtr[d + 1] as number); k++) {
      if (flags[k] === 1) dropped = true
      else kept.push(lineText(doc, lines, k))
    }
    return dropped ? kept.join('\n') : doc
  })
}
