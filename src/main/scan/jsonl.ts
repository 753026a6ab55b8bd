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

/** A record's own time (`timestamp`, ISO or epoch), ms since epoch, or undefined. */
export function recordTime(r: Json): number | undefined {
  const t = r.timestamp
  const ms = typeof t === 'string' ? Date.parse(t) : typeof t === 'number' ? (t < 1e12 ? t * 1000 : t) : NaN
  return Number.isFinite(ms) ? ms : undefined
}

/**
 * Feeds every JSON object line of a file to `onRecord` with its 1-based line number and, through `at`, tells the
 * builder the record's own time first; returns how many lines were malformed or overlong.
 */
export async function readJsonRecords(file: string, onRecord: (r: Json, line: number) => void, reader?: LogReader): Promise<number> {
  let bad = 0
  let line = 0
  await readLines(
    file,
    (text) => {
      line++
      if (!text.trim()) {
        return
      }
      try {
        const r = asObj(JSON.parse(text))
        if (r) {
          onRecord(r, line)
        } else {
          bad++
        }
      } catch {
        bad++
      }
    },
    {
      reader,
      onOverlong: () => {
        line++
        bad++
      }
    }
  )
  return bad
}
