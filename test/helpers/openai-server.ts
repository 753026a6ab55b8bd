import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request the fake model received. */
export interface RecordedRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: unknown
}

/** What a handler answers: a JSON body with a status, or `delayMs` before answering (for timeout tests). */
export interface ServerAnswer {
  status?: number
  json?: unknown
  delayMs?: number
}

export type Handler = (req: RecordedRequest, index: number) => ServerAnswer | Promise<ServerAnswer>

export interface OpenAiTestServer {
  /** Base URL to give the SDK, ending in `/v1`. */
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/** A chat-completions body with plain text and/or tool calls, in the OpenAI wire format. */
export function chatCompletion(
  text: string | null,
  toolCalls: { name: string; arguments: unknown }[] = [],
  model = 'test-model'
): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: text,
          ...(toolCalls.length
            ? {
                tool_calls: toolCalls.map((c, i) => ({
                  id: `call_${i}`,
                  type: 'function',
                  function: {
                    name: c.name,
                    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments)
                  }
                }))
              }
            : {})
        }
      }
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
  }
}

/**
 * Starts a real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol.
 * `handler` decides each answer; every request is recorded for assertions.
 */
export async function startOpenAiServer(handler: Handler): Promise<OpenAiTestServer> {
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown = raw
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        // keep the raw text
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body
      }
      const index = requests.push(recorded) - 1
      Promise.resolve(handler(recorded, index))
        .then(async (answer) => {
          if (answer.delayMs) {
            await new Promise((r) => setTimeout(r, answer.delayMs))
          }
          if (res.destroyed) {
            return
          }
          res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' })
          res.end(JSON.stringify(answer.json ?? {}))
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ error: { message: String(err) } }))
        })
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy()
        }
        server.close(() => resolve())
      })
  }
}
