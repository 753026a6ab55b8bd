/**
 * The CLI's side of the search daemon: ask the daemon of a library; when there is none, it is of another build or
 * it does not answer in time, the caller answers in process (and may start one: start.ts).
 */
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { buildStamp } from './address'
import { parseHeader, type CommandOutput, type ListRequest, type QueryRequest, type DaemonRequest } from './protocol'

/** How long a client waits for an answer before it answers in process (the daemon then drops the request unanswered). */
export const ANSWER_TIMEOUT_MS = 20_000
/** Extra wait past the deadline, so a request the daemon started on is answered, not repeated in process. */
const GRACE_MS = 5_000
/** The largest header line accepted. */
const MAX_HEADER_BYTES = 64 * 1024

export type AskResult = { answered: CommandOutput; ms: number } | { fallback: string }

/** A request as a caller gives it (the client adds the build and the deadline). */
export type Question = Omit<QueryRequest, 'build' | 'deadline'> | Omit<ListRequest, 'build' | 'deadline'>

/**
 * Why the socket must not be trusted (null: it may): it answers with skill texts an agent will act on, so it must
 * be ours, in a folder only we can write to (a cache folder pointed at a shared place could hold another user's).
 */
export function untrustedSocket(socket: string): string | null {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null
  try {
    const st = fs.lstatSync(socket)
    const dir = fs.lstatSync(path.dirname(socket))
    if (!st.isSocket()) return 'not a socket'
    if (uid !== null && (st.uid !== uid || dir.uid !== uid)) return 'owned by another user'
    if (!dir.isDirectory() || (dir.mode & 0o022) !== 0) return 'in a folder others can write to'
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'cannot be checked'
  }
  return null
}

/** Asks the daemon listening on `socket`; a fallback names why the caller must answer itself. */
export function askSearchDaemon(socket: string, question: Question, timeoutMs = ANSWER_TIMEOUT_MS): Promise<AskResult> {
  const distrust = untrustedSocket(socket)
  if (distrust) return Promise.resolve({ fallback: `the search daemon socket is not used (${distrust})` })
  return new Promise((resolve) => {
    let settled = false
    const finish = (r: AskResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      conn.destroy()
      resolve(r)
    }
    const request = { ...question, build: buildStamp(), deadline: Date.now() + timeoutMs } as DaemonRequest
    const began = Date.now()
    const conn = net.connect(socket)
    const timer = setTimeout(() => finish({ fallback: `the search daemon did not answer in ${Math.round((timeoutMs + GRACE_MS) / 1000)} s` }), timeoutMs + GRACE_MS)
    const chunks: Buffer[] = []
    let size = 0
    conn.on('connect', () => conn.write(JSON.stringify(request) + '\n'))
    conn.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
    })
    conn.on('end', () => {
      const all = Buffer.concat(chunks, size)
      const nl = all.indexOf(10)
      const header = nl === -1 || nl > MAX_HEADER_BYTES ? null : parseHeader(all.subarray(0, nl).toString('utf8'))
      if (!header) finish({ fallback: 'the search daemon gave no answer' })
      else if (!header.ok) finish({ fallback: `the search daemon did not answer (${header.reason}${header.message ? `: ${header.message}` : ''})` })
      else if (all.length - nl - 1 !== header.bytes) finish({ fallback: 'the search daemon\'s answer was cut short' })
      else finish({ answered: { stdout: all.subarray(nl + 1), stderr: header.stderr, code: header.code }, ms: Date.now() - began })
    })
    // No daemon (no socket, or one left by a daemon that is gone): the usual case before the first start.
    conn.on('error', (err: NodeJS.ErrnoException) => finish({ fallback: `no search daemon (${err.code ?? err.message})` }))
  })
}

/**
 * The query's answer as the JSON document `skillbench query --json` prints (a QueryResult), from the daemon on
 * `socket`; null when the caller must answer itself.
 */
export async function askSearchDaemonForResult(socket: string, question: { root: string; text: string; top: number; touch: boolean; via: string }): Promise<unknown> {
  const asked = await askSearchDaemon(socket, { op: 'query', ...question, json: true })
  if (!('answered' in asked)) return null
  try {
    return JSON.parse(asked.answered.stdout.toString('utf8')) as unknown
  } catch {
    return null
  }
}

/** Whether a daemon accepts connections on `socket` (a probe: nothing is asked). */
export function daemonAnswers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(socket)
    c.on('connect', () => {
      c.destroy()
      resolve(true)
    })
    c.on('error', () => resolve(false))
  })
}
