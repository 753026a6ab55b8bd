/**
 * The first moments of `skillbench mcp` over stdio, before the MCP SDK has loaded (~200 ms of zod and SDK
 * modules, more than the rest of the start-up): `initialize` is answered at once (handshake.ts), and
 * `query_skill` calls with plain arguments are answered from the tool answers (tool-answers.ts, the same code the
 * SDK server's handler runs) as soon as the library's search index is open. Everything else — and everything
 * after the first message only the SDK can answer, so answers never overtake one another out of order — is kept,
 * in arrival order, and handed to the SDK server once it has loaded (with the rest of stdin behind it).
 *
 * The SDK is loaded when a message needs it, or in idle time (the index open, no early answer in flight): a
 * client that asks only the first query gets it without waiting for the SDK. Pure transport logic: it imports no
 * SDK code at run time.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream'
import { thrownAnswer } from './answer-shape'
import { initializeResult } from './handshake'
import type { ToolAnswerer } from './tool-answers'

type RequestId = string | number

/** The SDK's stdio read buffer limit (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
const MAX_LINE_BYTES = 10 * 1024 * 1024

export interface StdioFrontOptions {
  stdin: Readable
  stdout: Writable
  log?: (line: string) => void
}

export interface HandOver {
  /** What the SDK's stdio transport reads: every message not answered here, in arrival order, then the rest of stdin. */
  stdin: Readable
  /** Requests answered here that are in that stream too (`initialize`, so the SDK knows the client): their SDK answers are dropped. */
  answered: Set<RequestId>
  /** Puts the kept messages into `stdin`: call once the SDK server listens (serveStdio's `onListening`). */
  start: () => void
}

export interface StdioFront {
  /**
   * Resolves true when the SDK server is wanted (a message only it answers arrived, or the front is idle), false
   * when stdin ended (or the signal aborted) and everything was answered here.
   */
  readonly sdkWanted: Promise<boolean>
  /** Resolves when the first bytes (or the end) of stdin arrived. */
  readonly firstInput: Promise<void>
  /** Answers query_skill calls from now on (before, they wait); `ready` settles when the search index is open. */
  answerQueries(answer: ToolAnswerer, ready: Promise<unknown>): void
  /** Stops answering here and hands the rest of the conversation over. Call once. */
  handOver(): HandOver
  /** Resolves when every answer given here has been written. */
  drained(): Promise<void>
  /** Stops reading (the signal aborted). */
  close(): void
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isRequestId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))
const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]): boolean => Object.keys(o).every((k) => allowed.includes(k))

/** An `initialize` request of the plain shape every client sends (anything unusual is left to the SDK's checks). */
export function plainInitialize(msg: unknown): { id: RequestId; protocolVersion: string } | undefined {
  if (!isPlainObject(msg) || msg.jsonrpc !== '2.0' || msg.method !== 'initialize' || !isRequestId(msg.id) || !isPlainObject(msg.params)) return undefined
  const { protocolVersion, capabilities, clientInfo } = msg.params
  if (typeof protocolVersion !== 'string' || !isPlainObject(capabilities) || !isPlainObject(clientInfo)) return undefined
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined
  // Capabilities are objects of options; one that is not is for the SDK to refuse.
  if (!Object.values(capabilities).every(isPlainObject)) return undefined
  return { id: msg.id, protocolVersion }
}

/** A `tools/call` of query_skill with exactly the arguments its schema allows (`{ query: string }`). */
export function plainQueryCall(msg: unknown): { id: RequestId; query: string } | undefined {
  if (!isPlainObject(msg) || msg.jsonrpc !== '2.0' || msg.method !== 'tools/call' || !isRequestId(msg.id) || !isPlainObject(msg.params)) return undefined
  const { params } = msg
  if (!onlyKeys(params, ['name', 'arguments']) || params.name !== 'query_skill' || !isPlainObject(params.arguments)) return undefined
  const args = params.arguments
  if (!onlyKeys(args, ['query']) || typeof args.query !== 'string') return undefined
  return { id: msg.id, query: args.query }
}

const isInitializedNotification = (msg: unknown): boolean => isPlainObject(msg) && msg.jsonrpc === '2.0' && msg.method === 'notifications/initialized' && !('id' in msg)

export function startStdioFront(opts: StdioFrontOptions): StdioFront {
  const { stdin, stdout } = opts
  const log = opts.log ?? (() => undefined)
  /** Lines not yet looked at (arrival order). */
  const incoming: string[] = []
  /** Lines for the SDK (arrival order), until the hand-over. */
  const forwarded: string[] = []
  const answered = new Set<RequestId>()
  const inFlight = new Set<Promise<void>>()
  /** Bytes after the last newline (split on bytes: a character cut between two chunks stays whole). */
  let partial: Buffer = Buffer.alloc(0)
  let ended = false
  /** Set once a line went to the SDK that it must answer: later lines go there too, in order. */
  let sdkOnly = false
  let answer: ToolAnswerer | undefined
  let indexReady = false
  let handed: PassThrough | undefined
  /** After the hand-over: whether the kept lines are in the stream yet (chunks arriving before wait behind them). */
  let flushed = false
  const later: (Buffer | string)[] = []
  let resolveWanted!: (wanted: boolean) => void
  let settled = false
  const sdkWanted = new Promise<boolean>((resolve) => (resolveWanted = resolve))

  let gotInput!: () => void
  const firstInput = new Promise<void>((resolve) => (gotInput = resolve))
  const write = (msg: unknown): void => void stdout.write(JSON.stringify(msg) + '\n')

  const settle = (wanted: boolean): void => {
    settled = true
    resolveWanted(wanted)
  }
  /** Whether the SDK is wanted now: for a message only it answers; when idle (index open, no early answer in flight). */
  const decide = (): void => {
    if (settled || handed || inFlight.size > 0) return
    if (sdkOnly) settle(true)
    else if (ended) {
      // everything was answered here once no query waits for the tools (a last line without its newline is
      // never read, as by the SDK's own transport)
      if (incoming.length === 0) settle(false)
    } else if (indexReady && answer) settle(true)
  }

  const answerQuery = (id: RequestId, query: string, answerer: ToolAnswerer): void => {
    const done: Promise<void> = answerer('query_skill', { query })
      // a tool that threw: the server's answer to it (its handler catches the same way)
      .catch(thrownAnswer)
      .then((result) => write({ jsonrpc: '2.0', id, result }))
      .finally(() => {
        inFlight.delete(done)
        decide()
      })
    inFlight.add(done)
  }

  const pump = (): void => {
    while (incoming.length > 0 && !handed) {
      const line = incoming[0]!
      if (!sdkOnly) {
        let msg: unknown
        try {
          msg = JSON.parse(line)
        } catch {
          msg = undefined
        }
        const init = plainInitialize(msg)
        if (init) {
          // Answered now; the SDK sees it too (it records the client), and its own answer is dropped.
          write({ jsonrpc: '2.0', id: init.id, result: initializeResult(init.protocolVersion) })
          answered.add(init.id)
          forwarded.push(incoming.shift()!)
          continue
        }
        if (isInitializedNotification(msg)) {
          forwarded.push(incoming.shift()!)
          continue
        }
        const query = plainQueryCall(msg)
        if (query) {
          if (!answer) return // the tools are not ready yet: wait, in order
          incoming.shift()
          answerQuery(query.id, query.query, answer)
          continue
        }
        if (line.trim() !== '') {
          sdkOnly = true
          log('loading the MCP SDK for a request only it answers')
        }
      }
      forwarded.push(incoming.shift()!)
    }
    decide()
  }

  const onData = (chunk: Buffer | string): void => {
    gotInput()
    if (handed) {
      if (flushed) handed.write(chunk)
      else later.push(chunk)
      return
    }
    const buf = partial.length > 0 ? Buffer.concat([partial, Buffer.from(chunk)]) : Buffer.from(chunk)
    let start = 0
    for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a, start)) {
      incoming.push(buf.toString('utf8', start, nl).replace(/\r$/, ''))
      start = nl + 1
    }
    partial = buf.subarray(start)
    // A line longer than the SDK accepts is the SDK's to refuse.
    if (partial.length > MAX_LINE_BYTES) sdkOnly = true
    pump()
  }
  const onEnd = (): void => {
    ended = true
    gotInput()
    if (handed) {
      if (flushed) handed.end()
    } else decide()
  }
  stdin.on('data', onData)
  stdin.once('end', onEnd)

  return {
    sdkWanted,
    firstInput,
    answerQueries(answerer, ready) {
      answer = answerer
      void ready
        .catch(() => undefined)
        .then(() => {
          indexReady = true
          decide()
        })
      pump()
    },
    handOver() {
      const stream = new PassThrough()
      handed = stream
      const kept = Buffer.concat([Buffer.from([...forwarded, ...incoming].map((line) => line + '\n').join('')), partial])
      forwarded.length = 0
      incoming.length = 0
      partial = Buffer.alloc(0)
      const start = (): void => {
        if (flushed) return
        stream.write(kept)
        flushed = true
        for (const chunk of later.splice(0)) stream.write(chunk)
        if (ended) stream.end()
      }
      return { stdin: stream, answered, start }
    },
    async drained() {
      while (inFlight.size > 0) await Promise.all([...inFlight])
    },
    close() {
      stdin.off('data', onData)
      stdin.off('end', onEnd)
      stdin.pause()
      if (!settled) settle(false)
      handed?.end()
    }
  }
}
