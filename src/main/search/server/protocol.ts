/**
 * The search server's protocol: one JSON line each way per connection. The answer is the command's own output
 * (stdout, stderr, exit code), made by the same code the CLI runs in process, so the two cannot differ.
 */

export interface QueryRequest {
  op: 'query'
  /** buildStamp() of the client: a server of another build steps down. */
  build: string
  /** The library asked about (its real path): a server answers only for its own. */
  root: string
  text: string
  top: number
  touch: boolean
  json: boolean
  /** Who is asking (recorded with each use in the ledger). */
  via: string
  /** Epoch ms after which the server must not start on it (the client answers in process by then). */
  deadline: number
}

export type ServerAnswer =
  | { ok: true; stdout: string; stderr: string; code: number }
  /** Not answered and nothing written: the client answers in process. */
  | { ok: false; reason: 'build' | 'other-library' | 'late' | 'closing' | 'bad-request' | 'failed'; message?: string }

/** The largest request line a server reads (a query is at most 20,000 characters). */
export const MAX_REQUEST_BYTES = 256 * 1024

/** A request parsed from a line, or null when it is not one. */
export function parseRequest(line: string): QueryRequest | null {
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return null
  }
  if (typeof v !== 'object' || v === null) return null
  const r = v as Record<string, unknown>
  const ok =
    r.op === 'query' &&
    typeof r.build === 'string' &&
    typeof r.root === 'string' &&
    typeof r.text === 'string' &&
    Number.isInteger(r.top) &&
    typeof r.touch === 'boolean' &&
    typeof r.json === 'boolean' &&
    typeof r.via === 'string' &&
    typeof r.deadline === 'number'
  return ok ? (r as unknown as QueryRequest) : null
}

/** An answer parsed from a line, or null when it is not one. */
export function parseAnswer(line: string): ServerAnswer | null {
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return null
  }
  if (typeof v !== 'object' || v === null) return null
  const a = v as Record<string, unknown>
  if (a.ok === true && typeof a.stdout === 'string' && typeof a.stderr === 'string' && Number.isInteger(a.code)) return a as unknown as ServerAnswer
  if (a.ok === false && typeof a.reason === 'string') return a as unknown as ServerAnswer
  return null
}
