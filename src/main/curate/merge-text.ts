/**
 * Merging skill bodies and bookkeeping. Pure.
 *
 * Unlike upstream (which pastes whole bodies one after another), the merged body reads like one skill: the
 * primary's title is the only H1 (the others' H1 lines are dropped); bodies are cut into sections (a heading and
 * what follows) and blocks (paragraphs, lists, fenced code kept whole); sections whose headings mean the same
 * (`Approach` / `Steps` / `方法步骤`…) are one section; a list adds only the items it does not already hold (the same
 * words in another order count as held) to the section's own list of that kind, and a numbered list is
 * renumbered, so there is one numbered procedure; a block already present (equal, contained, or nearly the same
 * words) is dropped, as is a `**Label:**` line whose label the section already has; other sections are appended.
 */
import type { Skill } from '../../shared/types'
import { asciiWordChars, forEachWordRun } from '../text/word-runs'

interface Section {
  /** The heading line as written, or null for text before the first heading. */
  heading: string | null
  blocks: string[]
}

const HEADING = /^#{1,6}\s+\S/
const H1 = /^#\s+\S/
const FENCE = /^\s*(```|~~~)/
const ITEM = /^(\s*)(\d+[.)]|[-*+])\s+/
const LABEL = /^\*\*([^*\n]{1,40}?)[:：]?\*\*[:：]?\s/
/** Two items or paragraphs sharing at least this share of the shorter one's words are the same point said twice… */
const SAME_WORDS = 0.75
/** …and at least this share of the longer one's. */
const SAME_WORDS_OF_LARGER = SAME_WORDS - 0.15

/** Collapses whitespace and case so re-wrapped or re-indented copies still match. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase()
}

/** Headings that name the same part of a skill, in English and Chinese. */
const HEADING_SYNONYMS: [RegExp, string][] = [
  [/^(approach|steps|procedure|method|how to( do it)?|workflow|process|方法步骤|步骤|操作步骤|执行步骤|方法|流程)$/, 'procedure'],
  [/^(pitfalls?|gotchas?|caveats?|common (problems|mistakes)|pitfalls and fixes|踩坑与解决|注意事项|常见问题|坑点)$/, 'pitfalls'],
  [/^(when to use|usage|use when|适用场景|使用场景)$/, 'when'],
  [/^(outputs?|files|output files|产出文件|输出文件)$/, 'outputs']
]

function normaliseHeading(line: string): string {
  const text = normaliseText(line.replace(/^#{1,6}\s+/, '').replace(/[\s#:：]+$/, ''))
  for (const [pattern, key] of HEADING_SYNONYMS) if (pattern.test(text)) return key
  return text
}

/** Splits a Markdown body into heading sections of blank-line-separated blocks (fenced code stays one block). */
export function splitSections(body: string): Section[] {
  const sections: Section[] = [{ heading: null, blocks: [] }]
  let current = sections[0] as Section
  let block: string[] = []
  let fence: string | null = null
  const flush = (): void => {
    // trimEnd removes exactly what /\s+$/ would (WhiteSpace and LineTerminator), without the regex's rescans
    if (block.some((l) => l.trim() !== '')) current.blocks.push(block.join('\n').trimEnd())
    block = []
  }
  for (const line of body.replace(/\r\n/g, '\n').split('\n')) {
    if (fence !== null) {
      block.push(line)
      if (line.trim().startsWith(fence)) {
        fence = null
        flush()
      }
      continue
    }
    const open = FENCE.exec(line)
    if (open) {
      flush()
      fence = open[1] as string
      block.push(line)
      continue
    }
    if (HEADING.test(line)) {
      flush()
      current = { heading: line.trimEnd(), blocks: [] }
      sections.push(current)
      continue
    }
    if (line.trim() === '') flush()
    else block.push(line)
  }
  flush()
  return sections.filter((s) => s.heading !== null || s.blocks.length > 0)
}

function render(sections: Section[]): string {
  const parts: string[] = []
  for (const s of sections) {
    if (s.heading !== null) parts.push(s.heading)
    parts.push(...s.blocks)
  }
  return parts.join('\n\n') + '\n'
}

type ListKind = 'ordered' | 'bullet'

/** The items of a block made only of list items (continuation lines stay with their item), or null. */
export function listItems(block: string): { kind: ListKind; items: string[] } | null {
  const lines = block.split('\n')
  const first = ITEM.exec(lines[0] ?? '')
  if (!first || first[1] !== '') return null
  const kind: ListKind = /\d/.test(first[2] ?? '') ? 'ordered' : 'bullet'
  const items: string[] = []
  for (const line of lines) {
    const m = ITEM.exec(line)
    if (m && m[1] === '') {
      if ((/\d/.test(m[2] ?? '') ? 'ordered' : 'bullet') !== kind) return null
      items.push(line.slice(m[0].length))
    } else if (items.length > 0 && (line.startsWith(' ') || line.startsWith('\t') || line.trim() !== '')) {
      items[items.length - 1] += `\n${line}`
    }
  }
  return { kind, items }
}

function renderList(kind: ListKind, items: readonly string[]): string {
  return items.map((item, i) => `${kind === 'ordered' ? `${i + 1}.` : '-'} ${item}`).join('\n')
}

const WORDS = /[\p{Script=Han}]|[\p{L}\p{N}_]+/gu
/** The ASCII characters a word of WORDS may hold. */
const WORD_CHARS = asciiWordChars('_')
const CLOSING_PUNCTUATION = /[.。!！:：;；\s]+$/

/**
 * The words of a text (letters and digits; CJK characters one by one), for "same point" checks: what WORDS finds in
 * the lowercased text. A run of ASCII word characters is one word, cut out by character code; only runs with other
 * characters go to WORDS (word-runs.ts). Exported for its test.
 */
export function words(text: string): Set<string> {
  const lower = text.toLowerCase()
  const out = new Set<string>()
  forEachWordRun(
    lower,
    WORD_CHARS,
    (start, end) => out.add(lower.slice(start, end)),
    // match() with /g gives plain strings (matchAll's match objects cost several times more)
    (start, end) => {
      for (const word of lower.slice(start, end).match(WORDS) ?? []) out.add(word)
    }
  )
  return out
}

/**
 * Normalised texts and word sets of the blocks and items one merge compares: each block is compared with every
 * kept one, so without this the same few texts are normalised and split into words again and again.
 */
class TextMemo {
  private readonly norms = new Map<string, string>()
  private readonly wordSets = new Map<string, Set<string>>()
  private readonly lists = new Map<string, ReturnType<typeof listItems>>()
  private readonly headings = new Map<string, string>()
  private readonly bares = new Map<string, string>()
  private readonly labels = new Map<string, string | null>()

  norm(text: string): string {
    return cached(this.norms, text, normaliseText)
  }

  /** Same answer as samePoint(a, b). */
  same(a: string, b: string): boolean {
    return sameWords(cached(this.wordSets, a, words), cached(this.wordSets, b, words))
  }

  /** listItems of a block (the result is shared: read it, never change it). */
  list(block: string): ReturnType<typeof listItems> {
    return cached(this.lists, block, listItems)
  }

  heading(line: string): string {
    return cached(this.headings, line, normaliseHeading)
  }

  /** The normalised text without its closing punctuation (a sentence and its fuller version share it). */
  bare(text: string): string {
    return cached(this.bares, text, this.bareOf)
  }

  private readonly bareOf = (text: string): string => this.norm(text).replace(CLOSING_PUNCTUATION, '')

  /** labelOf(block). */
  label(block: string): string | null {
    return cached(this.labels, block, labelOf)
  }
}

/** `make(key)`, once per key (`make` never returns undefined: one lookup tells a hit). */
function cached<V>(map: Map<string, V>, key: string, make: (key: string) => V): V {
  const hit = map.get(key)
  if (hit !== undefined) return hit
  const value = make(key)
  map.set(key, value)
  return value
}

/** True when two texts share most of their words (the shorter one's view): the same point, reworded. */
export function samePoint(a: string, b: string): boolean {
  return sameWords(words(a), words(b))
}

function sameWords(x: ReadonlySet<string>, y: ReadonlySet<string>): boolean {
  const small = Math.min(x.size, y.size)
  const large = Math.max(x.size, y.size)
  // shared ≤ small: sets too different in size fail the second test whatever they share
  if (small === 0 || small / large < SAME_WORDS_OF_LARGER) return false
  let shared = 0
  for (const w of x) if (y.has(w)) shared++
  return shared / small >= SAME_WORDS && shared / large >= SAME_WORDS_OF_LARGER
}

function labelOf(block: string): string | null {
  const m = LABEL.exec(block)
  return m ? normaliseText(m[1] ?? '') : null
}

/**
 * Merges bodies, the first one (the primary) leading (see the module comment). Returns the primary unchanged
 * when the others add nothing.
 */
export function mergeBodies(bodies: readonly string[]): string {
  const [first, ...rest] = bodies
  if (first === undefined) return ''
  const sections = splitSections(first)
  const memo = new TextMemo()
  let changed = false
  for (const body of rest) {
    for (const s of splitSections(body)) {
      // one title: another skill's H1 does not start a section; its text joins the untitled lead
      const heading = s.heading !== null && H1.test(s.heading) ? null : s.heading
      const key = heading === null ? null : memo.heading(heading)
      let target = sections.find((t) => (t.heading === null || H1.test(t.heading) ? key === null : key !== null && memo.heading(t.heading) === key))
      for (const block of s.blocks) {
        if (isKnown(sections, block, memo)) continue
        if (!target) {
          target = { heading, blocks: [] }
          // text before any heading must stay before the first heading, or it would read as part of the last section
          if (heading === null) sections.splice(sections[0]?.heading !== null && H1.test(sections[0]?.heading ?? '') ? 1 : 0, 0, target)
          else sections.push(target)
        }
        if (addBlock(target, block, memo)) changed = true
      }
    }
  }
  if (!changed) return first
  return render(sections.filter((s) => s.heading !== null || s.blocks.length > 0))
}

/** True when the block's text is already in the merged body (equal to, or contained in, a kept block). */
function isKnown(sections: readonly Section[], block: string, memo: TextMemo): boolean {
  const norm = memo.norm(block)
  if (norm === '') return true
  return sections.some((s) => s.blocks.some((k) => memo.norm(k).includes(norm)))
}

/**
 * The kept items plus the incoming ones they lack, each new item placed where its list had it: after the kept
 * item matching its nearest known predecessor, else before the one matching its nearest known successor, else
 * at the end. Null when nothing is new.
 */
function mergeItems(kept: readonly string[], incoming: readonly string[], memo: TextMemo): string[] | null {
  const out = [...kept]
  const matchOf = (item: string): number => out.findIndex((e) => memo.same(e, item))
  let added = false
  incoming.forEach((item, i) => {
    if (matchOf(item) !== -1) return
    let at = out.length
    for (let j = i - 1; j >= 0; j--) {
      const m = matchOf(incoming[j]!)
      if (m !== -1) {
        at = m + 1
        break
      }
    }
    if (at === out.length) {
      for (let k = i + 1; k < incoming.length; k++) {
        const m = matchOf(incoming[k]!)
        if (m !== -1) {
          at = m
          break
        }
      }
    }
    out.splice(at, 0, item)
    added = true
  })
  return added ? out : null
}

/** Adds a block to a section, list items into the section's list of the same kind; false when nothing was new. */
function addBlock(section: Section, block: string, memo: TextMemo): boolean {
  const list = memo.list(block)
  if (list) {
    const at = section.blocks.findIndex((b) => memo.list(b)?.kind === list.kind)
    if (at !== -1) {
      const merged = mergeItems(memo.list(section.blocks[at]!)!.items, list.items, memo)
      if (!merged) return false
      section.blocks[at] = renderList(list.kind, merged)
      return true
    }
    const unique = list.items.filter((item, i) => !list.items.slice(0, i).some((e) => memo.same(e, item)))
    section.blocks.push(renderList(list.kind, unique))
    return true
  }
  const label = memo.label(block)
  if (label !== null && section.blocks.some((b) => memo.label(b) === label)) return false
  if (section.blocks.some((b) => !memo.list(b) && memo.same(b, block))) return false
  // a fuller version of a kept sentence ("Completed." → "Completed: tests and README delivered.") replaces it
  const bare = memo.bare(block)
  const shorter = section.blocks.findIndex((b) => {
    if (memo.list(b)) return false
    const kept = memo.bare(b)
    return kept !== '' && bare.startsWith(kept)
  })
  if (shorter !== -1) section.blocks[shorter] = block
  else section.blocks.push(block)
  return true
}

/** Bookkeeping of a merged skill (see docs/CURATION.md). */
export interface MergedMeta {
  task_directories: string[]
  fetch_count: number
  quality_index: number
}

/**
 * Unions task_directories (primary's order first), sums fetch_count, and combines quality as a
 * fetch-weighted mean with weight fetch_count + 1 (so never-fetched skills still count once),
 * rounded to 3 decimals like upstream's rate_skill.
 */
export function mergeMeta(primary: Skill, others: readonly Skill[]): MergedMeta {
  const all = [primary, ...others]
  const dirs: string[] = []
  for (const s of all) for (const d of s.task_directories) if (!dirs.includes(d)) dirs.push(d)
  let weight = 0
  let sum = 0
  for (const s of all) {
    const w = s.fetch_count + 1
    weight += w
    sum += w * s.quality_index
  }
  const quality = Math.round((sum / weight) * 1000) / 1000
  return { task_directories: dirs, fetch_count: all.reduce((a, s) => a + s.fetch_count, 0), quality_index: Math.min(1, Math.max(0, quality)) }
}

/** The skill that stays: highest quality_index, then most fetched, then oldest, then lowest path. */
export function pickPrimary<T extends Pick<Skill, 'quality_index' | 'fetch_count' | 'created_at' | 'path'>>(skills: readonly T[]): T {
  return [...skills].sort(
    (a, b) =>
      b.quality_index - a.quality_index ||
      b.fetch_count - a.fetch_count ||
      (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  )[0] as T
}
