/** What `skillbench validate` prints without --json (pure): one line per finding, in aligned columns. */
import type { ValidationReport } from '../formats/validate'
import { displayWidth } from './text-width'

/** The level column: as wide as its longest word, so every path starts in the same column. */
const LEVEL_WIDTH = 'warning'.length

/**
 * `ok`, `error` or `warning`, the file's path and its problem, the paths padded to the longest of them (terminal
 * columns: a CJK character counts 2) so the problems start in one column; then the counts.
 */
export function validateText(report: ValidationReport): string {
  const rows: Array<{ level: string; where: string; message: string | null }> = []
  for (const file of report.files) {
    if (file.problems.length === 0) rows.push({ level: 'ok', where: file.path, message: null })
    for (const p of file.problems) rows.push({ level: p.level === 'error' ? 'error' : 'warning', where: `${file.path}:`, message: shownMessage(p) })
  }
  const width = Math.max(0, ...rows.filter((r) => r.message !== null).map((r) => displayWidth(r.where)))
  const lines = rows.map(({ level, where, message }) =>
    message === null ? `${level.padEnd(LEVEL_WIDTH)} ${where}` : `${level.padEnd(LEVEL_WIDTH)} ${where}${' '.repeat(width - displayWidth(where))} ${message}`
  )
  lines.push(`${report.files.length} file(s), ${report.errors} error(s), ${report.warnings} warning(s)`)
  return lines.join('\n') + '\n'
}

/** A problem's words; one with none (blank) still shows in its column, with its code when it has one. */
function shownMessage(p: { message: string; messageCode?: string }): string {
  if (p.message.trim() !== '') return p.message
  return p.messageCode ? `(no message: ${p.messageCode})` : '(no message)'
}
