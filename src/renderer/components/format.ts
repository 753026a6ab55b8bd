/** Display helpers shared by the screens (pure). */

/** A short local date-time, or '—' for missing/invalid values. */
export function formatDate(value: string | number | null | undefined, lang: 'en' | 'zh'): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return date.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
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
