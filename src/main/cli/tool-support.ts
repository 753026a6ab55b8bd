/**
 * Small helpers shared by the skill CLI commands (list, query, rate, edit, delete, copy-files):
 * open the library named by the flags, validate ids, print tool answers and CJK-aware tables.
 */
import type { ToolResult } from '../../shared/types'
import { printJson, resolveLibraryDir, UsageError, type CliIo } from './common'
import { openLibraryServices, type LibraryServices } from '../services/library-services'
import { recoverFirst } from '../review/recover-first'
import { isValidSkillId } from '../store/paths'
import { withMessageCode } from '../tools/coded-result'
import { displayWidth } from './text-width'
import { coded } from '../../shared/error-codes'
import { say } from './lang'

/**
 * The services of the library given by `--library` or `--root-dir/--user` (the one composition, services/). Every
 * write of its store (edit, rate, delete, copy-files, a query's uses) finishes a change a crash interrupted first.
 */
export function servicesFromFlags(values: { library?: string; 'root-dir'?: string; user?: string }, io: CliIo, via?: string): Promise<LibraryServices> {
  return openLibraryServices(resolveLibraryDir(values, io.cwd), { env: io.env, recover: recoverFirst, ...(via ? { via } : {}) })
}

/** The skill id positional, checked (bad ids are bad usage: exit 2). */
export function skillIdArg(value: string | undefined): string {
  if (value === undefined) throw new UsageError(coded('cli.missing_skill_id'))
  if (!isValidSkillId(value)) throw new UsageError(coded('skill.invalid_id', { id: JSON.stringify(value.slice(0, 40)) }))
  return value
}

/** Prints a write tool's answer: JSON on stdout with --json, else its message; exit 0 on success, 1 on error. */
export function reportToolResult(io: CliIo, result: ToolResult, json: boolean, command: string): number {
  if (json) printJson(io, withMessageCode(result))
  if (result.status === 'success') {
    if (!json) io.stdout(`${result.message}\n`)
    // a change journaled for undo (edit, delete): how to take it back, in the CLI's language (stdout stays as it was)
    if (!json && typeof result.journal_id === 'string') io.stderr(`${say(io, coded('cli.undo_with', { command: `skillbench undo ${result.journal_id}` }))}\n`)
    return 0
  }
  // in the CLI's language (--lang): by the code --json reports (withMessageCode), the English when it has none
  const answer = withMessageCode(result)
  io.stderr(`skillbench ${command}: ${say(io, { messageCode: answer.message_code, params: answer.params, message: result.message }).split('\n')[0]}\n`)
  return 1
}

/** Cuts a string to `width` columns on one line (adds … when cut). */
export function fitWidth(s: string, width: number): string {
  const flat = s.replace(/\s+/g, ' ').trim()
  if (displayWidth(flat) <= width) return flat
  let out = ''
  let w = 0
  for (const ch of flat) {
    const cw = displayWidth(ch)
    if (w + cw > width - 1) break
    out += ch
    w += cw
  }
  return out + '…'
}

/** A compact aligned table; the last column is not padded. */
export function formatTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))))
  const fmt = (r: string[]): string =>
    r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(Math.max(0, widths[i]! - displayWidth(c))))).join('  ').trimEnd()
  return [fmt(head), ...rows.map(fmt)].join('\n')
}
