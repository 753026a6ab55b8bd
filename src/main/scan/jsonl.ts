/**
 * What the JSONL session adapters (Claude Code, Codex CLI, Synapse) share: loose JSON access and a
 * record reader that skips torn or corrupt lines instead of failing the whole file.
 */
import { readLines, type LogReader } from './read-log'

export type Json = Record<string, unknown>

/** The value as a plain object, or undefined. */
export function asObj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
}

/** The value as a string ('' when it is not one). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** Feeds every JSON object line of a file to `onRecord`; returns how many lines were malformed or overlong. */
export async function readJsonRecords(file: string, onRecord: (r: Json) => void, reader?: LogReader): Promise<number> {
  let bad = 0
  await readLines(
    file,
    (line) => {
      if (!line.trim()) {
        return
      }
      try {
        const r = asObj(JSON.parse(line))
        if (r) {
          onRecord(r)
        } else {
          bad++
        }
      } catch {
        bad++
      }
    },
    { reader, onOverlong: () => bad++ }
  )
  return bad
}
