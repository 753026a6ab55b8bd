/**
 * Merging skill bodies and bookkeeping. Pure.
 *
 * Unlike upstream (which pastes whole bodies one after another), the merged body keeps every distinct
 * section once: bodies are cut into sections (a Markdown heading and what follows it) and blocks
 * (paragraphs, lists, fenced code kept whole); a block whose normalised text is already present — equal
 * to, or contained in, a kept block — is dropped; a section whose heading already exists adds its new
 * blocks under that heading; other sections are appended in order.
 */
import type { Skill } from '../../shared/types'

interface Section {
  /** The heading line as written, or null for text before the first heading. */
  heading: string | null
  blocks: string[]
}

const HEADING = /^#{1,6}\s+\S/
const FENCE = /^\s*(```|~~~)/

/** Collapses whitespace and case so re-wrapped or re-indented copies still match. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase()
}

function normaliseHeading(line: string): string {
  return normaliseText(line.replace(/^#{1,6}\s+/, '').replace(/[\s#:：]+$/, ''))
}

/** Splits a Markdown body into heading sections of blank-line-separated blocks (fenced code stays one block). */
export function splitSections(body: string): Section[] {
  const sections: Section[] = [{ heading: null, blocks: [] }]
  let current = sections[0] as Section
  let block: string[] = []
  let fence: string | null = null
  const flush = (): void => {
    if (block.some((l) => l.trim() !== '')) current.blocks.push(block.join('\n').replace(/\s+$/, ''))
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

/**
 * Merges bodies, the first one (the primary) leading: every distinct section and block is kept once,
 * repeated text is dropped. Returns the primary unchanged when the others add nothing.
 */
export function mergeBodies(bodies: readonly string[]): string {
  const [first, ...rest] = bodies
  if (first === undefined) return ''
  const sections = splitSections(first)
  const seen: string[] = []
  const isKnown = (norm: string): boolean => norm === '' || seen.some((k) => k === norm || k.includes(norm))
  for (const s of sections) for (const b of s.blocks) seen.push(normaliseText(b))
  let changed = false
  for (const body of rest) {
    for (const s of splitSections(body)) {
      const fresh = s.blocks.filter((b) => {
        const norm = normaliseText(b)
        if (isKnown(norm)) return false
        seen.push(norm)
        return true
      })
      if (fresh.length === 0) continue
      changed = true
      const key = s.heading === null ? null : normaliseHeading(s.heading)
      const target = sections.find((t) => (t.heading === null ? key === null : key !== null && normaliseHeading(t.heading) === key))
      if (target) target.blocks.push(...fresh)
      // Text before any heading must stay before the first heading, or it would read as part of the last section.
      else if (s.heading === null) sections.unshift({ heading: null, blocks: fresh })
      else sections.push({ heading: s.heading, blocks: fresh })
    }
  }
  if (!changed) return first
  return render(sections)
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
