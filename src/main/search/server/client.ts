/**
 * The CLI's side of the search server: ask the server of a library; when there is none, it is of another build or
 * it does not answer in time, the caller answers in process (and may start one: start.ts).
 */
import net from 'node:net'
import { buildStamp } from './address'
import { MAX_REQUEST_BYTES, parseAnswer, type QueryRequest, type ServerAnswer } from './protocol'

/** How long a client waits for an answer before it answers in process (the server then drops the request unanswered). */
export const ANSWER_TIMEOUT_MS = 20_000
/** Extra wait past the deadline, so a request the server started on is answered, not repeated in process. */
const GRACE_MS = 5_000

export type AskResult = { answered: Extract<ServerAnswer, { ok: true }>; ms: number } | { fallback: string }

/** Asks the server listening on `socket`; a fallback names why the caller must answer itself. */
export function askSearchServer(socket: string, req: Omit<QueryRequest, 'build' | 'deadline' | 'op'>, timeoutMs = ANSWER_TIMEOUT_MS): Promise<AskResult> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (r: AskResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      conn.destroy()
      resolve(r)
    }
    const request: QueryRequest = { op: 'query', build: buildStamp(), deadline: Date.now() + timeoutMs, ...req }
    const began = Date.now()
    const conn = net.connect(socket)
    const timer = setTimeout(() => finish({ fallback: `the search server did not answer in ${Math.round((timeoutMs + GRACE_MS) / 1000)} s` }), timeoutMs + GRACE_MS)
    const chunks: Buffer[] = []
    let size = 0
    conn.on('connect', () => conn.write(JSON.stringify(request) + '\n'))
    conn.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
      if (size > 64 * MAX_REQUEST_BYTES) finish({ fallback: 'the search server answered too much' })
    })
    conn.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const answer = parseAnswer(text.endsWith('\n') ? text.slice(0, -1) : text)
      if (!answer) finish({ fallback: 'the search server gave no answer' })
      else if (answer.ok) finish({ answered: answer, ms: Date.now() - began })
      else finish({ fallback: `the search server did not answer (${answer.reason}${answer.message ? `: ${answer.message}` : ''})` })
    })
    // No server (no socket, or one left by a server that is gone): the usual case before the first start.
    conn.on('error', (err: NodeJS.ErrnoException) => finish({ fallback: `no search server (${err.code ?? err.message})` }))
  })
}

/**
 * The query's answer as the JSON document `skillbench query --json` prints (a QueryResult), from the server on
 * `socket`; null when the caller must answer itself.
 */
export async function askSearchServerForResult(socket: string, req: Omit<QueryRequest, 'build' | 'deadline' | 'op' | 'json'>): Promise<unknown> {
  const asked = await askSearchServer(socket, { ...req, json: true })
  if (!('answered' in asked)) return null
  try {
    return JSON.parse(asked.answered.stdout) as unknown
  } catch {
    return null
  }
}

/** Whether a server accepts connections on `socket` (a probe: nothing is asked). */
export function serverAnswers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(socket)
    c.on('connect', () => {
      c.destroy()
      resolve(true)
    })
    c.on('error', () => resolve(false))
  })
}
