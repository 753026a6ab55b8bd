/**
 * The search daemon's protocol, one question per connection: the client sends one JSON line; the daemon answers
 * with one JSON line (the header) and, when it answered, the command's stdout as raw bytes (`bytes` of them: a
 * 10,000-skill listing is megabytes, never escaped into JSON). The output is the command's own (stdout, stderr, exit
 * code), made by the same code the CLI runs in process, so the two cannot differ.
 */

interface RequestBase {
  /** buildStamp() of the client: a daemon of another build steps down. */
  build: string
  /** The library asked about (its real path): a daemon answers only for its own. */
  root: string
  json: boolean
  /** Epoch ms after which the daemon must not start on it (the client answers in process by then). */
  deadline: number
}

export interface QueryRequest extends RequestBase {
  op: 'query'
  text: string
  top: number
  touch: boolean
  /** Who is asking (recorded with each use in the ledger). */
  via: string
}

export interface ListRequest extends RequestBase {
  op: 'list'
  legacy: boolean
}

export type DaemonRequest = QueryRequest | ListRequest

/** The header line of an answer. */
export type AnswerHeader =
  | { ok: true; stderr: string; code: number; bytes: number }
  /** Not answered and nothing written: the client answers in process. */
  | { ok: false; reason: 'build' | 'other-library' | 'late' | 'closing' | 'bad-request' | 'failed'; message?: string }

/** What the command printed, as a client receives it. */
export interface CommandOutput {
  stdout: Buffer
  stderr: string
  code: number
}

/** The largest request line a daemon reads (a query is at most 20,000 characters). */
export const MAX_REQUEST_BYTES = 256 * 1024

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(line)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** A request parsed from a line, or null when it is not one. */
export function parseRequest(line: string): DaemonRequest | null {
  const r = parseObject(line)
  if (!r || typeof r.build !== 'string' || typeof r.root !== 'string' || typeof r.json !== 'boolean' || typeof r.deadline !== 'number') return null
  if (r.op === 'query') {
    const ok = typeof r.text === 'string' && Number.isInteger(r.top) && typeof r.touch === 'boolean' && typeof r.via === 'string'
    return ok ? (r as unknown as QueryRequest) : null
  }
  if (r.op === 'list') return typeof r.legacy === 'boolean' ? (r as unknown as ListRequest) : null
  return null
}

/** An answer header parsed from a line, or null when it is not one. */
export function parseHeader(line: string): AnswerHeader | null {
  const a = parseObject(line)
  if (!a) return null
  if (a.ok === true && typeof a.stderr === 'string' && Number.isInteger(a.code) && Number.isInteger(a.bytes) && (a.bytes as number) >= 0) return a as unknown as AnswerHeader
  if (a.ok === false && typeof a.reason === 'string') return a as unknown as AnswerHeader
  return null
}
