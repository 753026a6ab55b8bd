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
  const rows: Array<[level: string, where: string, message: string]> = []
  for (const file of report.files) {
    if (file.problems.length === 0) rows.push(['ok', file.path, ''])
    for (const p of file.problems) rows.push([p.level === 'error' ? 'error' : 'warning', `${file.path}:`, p.message])
  }
  const width = Math.max(0, ...rows.filter((r) => r[2] !== '').map((r) => displayWidth(r[1])))
  const lines = rows.map(([level, where, message]) =>
    message === '' ? `${level.padEnd(LEVEL_WIDTH)} ${where}` : `${level.padEnd(LEVEL_WIDTH)} ${where}${' '.repeat(width - displayWidth(where))} ${message}`
  )
  lines.push(`${report.files.length} file(s), ${report.errors} error(s), ${report.warnings} warning(s)`)
  return lines.join('\n') + '\n'
}
