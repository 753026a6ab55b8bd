/** What `skillbench query` prints for an answer: the same text whether it was ranked in process or by the search daemon. */
import type { QueryResult } from '../../shared/types'
import { fitWidth, formatTable } from './tool-support'

/** A readable ranking: one row per skill, then its usage conditions. */
export function formatQueryTable(result: QueryResult): string {
  if (result.skills_count === 0) return result.message
  const rows = result.skills.map((s, i) => [String(i + 1), s.similarity_score.toFixed(3), s.quality_index.toFixed(2), s.skill_id, fitWidth(s.title, 60)])
  const lines = [`Found ${result.skills_count} relevant skill(s):`, '', formatTable(['#', 'SCORE', 'QUALITY', 'ID', 'TITLE'], rows), '']
  result.skills.forEach((s, i) => lines.push(`${i + 1}. ${s.path}`, `   Use when: ${fitWidth(s.usage_conditions || '-', 100)}`))
  return lines.join('\n')
}

/** A coded line in the reader's language (the CLI's `say`); English without it (the search daemon's answers). */
export type SayCoded = (message: { messageCode: string; params: Record<string, unknown>; text: string }) => string

/**
 * stdout, stderr and exit code of a query answer (`json`: the --json document). A use that could not be recorded
 * (a read-only library: `use_recorded: false` in the JSON) is said on stderr, the answer printed all the same.
 */
export function queryOutput(result: QueryResult, json: boolean, say: SayCoded = (m) => m.text): { stdout: string; stderr: string; code: number } {
  let stdout = ''
  if (json) stdout = JSON.stringify(result, null, 2) + '\n'
  else if (result.status === 'success') stdout = formatQueryTable(result) + '\n'
  if (result.status !== 'success') return { stdout, stderr: `${result.message}\n`, code: 1 }
  const notice = result.use_notice
  const stderr = notice ? `skillbench query: ${say({ messageCode: notice.message_code, params: notice.params, text: notice.message })}\n` : ''
  return { stdout, stderr, code: 0 }
}
