/** Python logging's line shape, as upstream AGIAgent's log files have it: `%(asctime)s - %(levelname)s - %(message)s`. */

/** `2026-01-17 09:59:21,686`: Python logging's `%(asctime)s`, local time. */
export function formatAsctime(d: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())},${p(d.getMilliseconds(), 3)}`
}

/** `YYYYMMDD` of a date (local), the suffix of upstream's daily log files. */
export function logDay(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}`
}

/** One record per line: a multi-line message must not forge extra records. */
export function logLine(at: Date, level: 'INFO' | 'ERROR', message: string): string {
  return `${formatAsctime(at)} - ${level} - ${message.replace(/\r?\n/g, ' ⏎ ')}\n`
}
