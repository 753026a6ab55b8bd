/** Display helpers shared by the screens (pure). */

const pad = (n: number): string => String(n).padStart(2, '0')

/** A compact local date-time `2026-02-15 09:30` (same in every language, fits dense lists), or '—'. */
export function formatDate(value: string | number | null | undefined, _lang?: 'en' | 'zh'): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** 0..1 → "0.50". */
export function formatQuality(q: number): string {
  return Number.isFinite(q) ? q.toFixed(2) : '—'
}

/** Bytes → "12.3 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

let graphemeSegmenter: Intl.Segmenter | undefined

/** The characters of a text as a person sees them (grapheme clusters: a flag, an emoji joined with ZWJ, a letter and its accents are one each). */
export function graphemes(text: string): string[] {
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment)
}

/**
 * A path cut in the middle to at most `max` characters (counted as a person sees them: a flag or a joined emoji is
 * one, and never cut), `/tmp/sk…/agents-data`: its start (where it lives) and as much of its end (the folder's own
 * name, which tells paths apart) as fits. Shorter paths come back as they are; below 3 characters only the
 * ellipsis and the end fit (2: `…a`, 1: `…`, 0 or less: nothing).
 */
export function middleEllipsis(text: string, max: number): string {
  const limit = max >= 0 ? Math.floor(max) : 0
  const chars = graphemes(text)
  if (chars.length <= limit) return text
  if (limit === 0) return ''
  const keep = limit - 1
  const head = keep >= 2 ? Math.max(1, Math.floor(keep / 4)) : 0
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`
}
