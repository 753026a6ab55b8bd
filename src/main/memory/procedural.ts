/**
 * Procedural memory (`memory/procedural.md`): tool failures as `- tool_name: reason`, one per
 * bullet, deduplicated per tool. Pure: the caller reads and writes the file.
 */
import type { AddEntryResult } from './lessons'
import { appendBullet, findDuplicate, oneLine, parseEntries } from './text'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'

export const PROCEDURAL_HEADER = '# Procedural memory / 程序记忆'

export interface ProceduralRecord {
  tool: string
  reason: string
}

/** Splits a `tool: reason` entry; entries written by hand without a colon have tool ''. */
export function parseProceduralEntry(entry: string): ProceduralRecord {
  const m = /^`?([^`:\s][^`:]{0,79}?)`?\s*[:：]\s*(.*)$/u.exec(entry)
  return m ? { tool: m[1]!.trim(), reason: m[2]!.trim() } : { tool: '', reason: entry }
}

/** Every record of a procedural.md text. */
export function parseProcedural(markdown: string): ProceduralRecord[] {
  return parseEntries(markdown).map(parseProceduralEntry)
}

/**
 * Variable parts of an error (numbers, paths, quoted values) hidden, so "line 12" and "line 40",
 * or two temp paths, count as the same failure.
 */
export function reasonKey(reason: string): string {
  return reason
    .replace(/(?:[A-Za-z]:)?[\\/][^\s'"`]+/g, '<path>')
    .replace(/(["'`])[^"'`]*\1/g, '<q>')
    .replace(/\d+/g, '#')
}

/** Records a tool failure unless the same tool already has the same (or near-same) reason. */
export function addProceduralRecord(current: string | null, record: ProceduralRecord, threshold?: number): AddEntryResult {
  const tool = oneLine(record.tool, 80).replace(/[`:：\s]/g, '')
  const reason = oneLine(record.reason, 300)
  if (!tool) {
    throw new CodedError('bad_request', coded('memory.procedural_needs_tool'))
  }
  if (!reason) {
    throw new CodedError('bad_request', coded('memory.procedural_needs_reason'))
  }
  const entry = `${tool}: ${reason}`
  const sameTool = parseEntries(current ?? '').filter((e) => parseProceduralEntry(e).tool === tool)
  const duplicateOf = findDuplicate(
    reasonKey(reason),
    sameTool.map((e) => reasonKey(parseProceduralEntry(e).reason)),
    threshold
  )
  if (duplicateOf !== undefined) {
    const original = sameTool.find((e) => reasonKey(parseProceduralEntry(e).reason) === duplicateOf) ?? duplicateOf
    return { text: current ?? '', added: false, entry, duplicateOf: original }
  }
  return { text: appendBullet(current, PROCEDURAL_HEADER, entry), added: true, entry }
}
