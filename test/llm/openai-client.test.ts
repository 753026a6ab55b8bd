import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiClient, llmConfigFromEnv } from '../../src/main/llm/openai-client'
import { LlmError } from '../../src/main/llm/errors'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'

const KEY = 'sk-test-SECRET-0123456789abcdef'
let server: OpenAiTestServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

function client(url: string, extra: Record<string, unknown> = {}) {
  return createOpenAiClient({ baseUrl: url, model: 'test-model', apiKey: KEY, retryBaseMs: 5, retryMaxMs: 20, ...extra })
}

describe('createOpenAiClient', () => {
  it('sends model, bearer key and the task text; returns text', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion('hello back') }))
    const reply = await client(server.url).chat({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'write a joke about parsers' }
      ],
      temperature: 0.2
    })
    expect(reply.text).toBe('hello back')
    expect(reply.toolCalls).toEqual([])
    expect(server.requests).toHaveLength(1)
    const req = server.requests[0]!
    expect(req.path).toBe('/v1/chat/completions')
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`)
    const body = req.body as { model: string; temperature: number; messages: { role: string; content: string }[] }
    expect(body.model).toBe('test-model')
    expect(body.temperature).toBe(0.2)
    expect(body.messages[1]!.content).toContain('write a joke about parsers')
  })

  it('returns tool calls', async () => {
    server = await startOpenAiServer(() => ({
      json: chatCompletion(null, [{ name: 'copy_skill_files', arguments: { file_paths: ['a.py'] } }])
    }))
    const reply = await client(server.url).chat({
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'copy_skill_files', description: 'd', parameters: { type: 'object' } } }]
    })
    expect(reply.text).toBe('')
    expect(reply.toolCalls).toHaveLength(1)
    expect(reply.toolCalls[0]!.name).toBe('copy_skill_files')
    expect(JSON.parse(reply.toolCalls[0]!.arguments)).toEqual({ file_paths: ['a.py'] })
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toHaveLength(1)
  })

  it('retries a 500 then succeeds, counting attempts', async () => {
    server = await startOpenAiServer((_r, i) =>
      i === 0 ? { status: 500, json: { error: { message: 'boom' } } } : { json: chatCompletion('ok') }
    )
    const attempts: number[] = []
    const c = createOpenAiClient(
      { baseUrl: server.url, model: 'm', apiKey: KEY, retryBaseMs: 5, retryMaxMs: 10 },
      { onAttempt: (a) => a.delayMs === undefined && attempts.push(a.attempt) }
    )
    const reply = await c.chat({ messages: [{ role: 'user', content: 'x' }] })
    expect(reply.text).toBe('ok')
    expect(server.requests).toHaveLength(2)
    expect(attempts).toEqual([1, 2])
  })

  it('retries 429 too', async () => {
    server = await startOpenAiServer((_r, i) =>
      i < 2 ? { status: 429, json: { error: { message: 'slow down' } } } : { json: chatCompletion('fine') }
    )
    const reply = await client(server.url).chat({ messages: [{ role: 'user', content: 'x' }] })
    expect(reply.text).toBe('fine')
    expect(server.requests).toHaveLength(3)
  })

  it('gives up on a persistent 500 after maxRetries + 1 attempts, with a redacted error', async () => {
    server = await startOpenAiServer(() => ({ status: 500, json: { error: { message: `internal, your key ${KEY}` } } }))
    const err = await client(server.url, { maxRetries: 2 })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmError)
    const e = err as LlmError
    expect(e.code).toBe('server')
    expect(e.attempts).toBe(3)
    expect(server.requests).toHaveLength(3)
    expect(e.message).not.toContain(KEY)
    expect(String(e.stack)).not.toContain(KEY)
  })

  it('does not retry a 400', async () => {
    server = await startOpenAiServer(() => ({ status: 400, json: { error: { message: 'bad model' } } }))
    const err = (await client(server.url).chat({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('bad_request')
    expect(server.requests).toHaveLength(1)
  })

  it('401 is an auth error that never echoes the key', async () => {
    server = await startOpenAiServer(() => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } }))
    const err = (await client(server.url).chat({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('auth')
    expect(err.message).not.toContain(KEY)
    expect(err.message).not.toContain('SECRET')
  })

  it('times out on a slow server, retrying then failing', async () => {
    server = await startOpenAiServer(() => ({ delayMs: 2_000, json: chatCompletion('late') }))
    const err = (await client(server.url, { timeoutMs: 150, maxRetries: 1 })
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as LlmError
    expect(err).toBeInstanceOf(LlmError)
    expect(err.code).toBe('timeout')
    expect(err.attempts).toBe(2)
    expect(server.requests).toHaveLength(2)
  })

  it('stops at once when the signal aborts', async () => {
    // Aborted once the request has reached the server (not after a guessed delay): the answer would take 2 s.
    const ctl = new AbortController()
    server = await startOpenAiServer(() => {
      ctl.abort()
      return { delayMs: 2_000, json: chatCompletion('late') }
    })
    const started = performance.now()
    const err = (await client(server.url, { timeoutMs: 5_000 })
      .chat({ messages: [{ role: 'user', content: 'x' }], signal: ctl.signal })
      .catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('aborted')
    expect(performance.now() - started).toBeLessThan(1_900)
    expect(server.requests).toHaveLength(1)
  })

  it('connection refused is a connection error without the key', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion('x') }))
    const url = server.url
    await server.close()
    server = undefined
    const err = (await client(url, { maxRetries: 1 }).chat({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('connection')
    expect(err.attempts).toBe(2)
    expect(err.message).not.toContain(KEY)
  })

  it('rejects a bad config clearly', () => {
    expect(() => createOpenAiClient({ baseUrl: 'ftp://x', model: 'm' })).toThrow(/base URL/)
    expect(() => createOpenAiClient({ baseUrl: 'http://x', model: '' })).toThrow(/model/)
  })

  it('works without a key (local servers)', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion('local') }))
    const c = createOpenAiClient({ baseUrl: server.url, model: 'llama' })
    expect((await c.chat({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('local')
  })
})

describe('llmConfigFromEnv', () => {
  it('prefers flags, then env, then settings; key only from env/settings', () => {
    const cfg = llmConfigFromEnv({ 'base-url': 'http://flag/v1' }, { OPENAI_BASE_URL: 'http://env/v1', OPENAI_API_KEY: 'k-env', OPENAI_MODEL: 'env-model' })
    expect(cfg).toMatchObject({ baseUrl: 'http://flag/v1', model: 'env-model', apiKey: 'k-env' })
    const cfg2 = llmConfigFromEnv({}, {})
    expect(cfg2.baseUrl).toBe('https://api.openai.com/v1')
    expect(cfg2.apiKey).toBeUndefined()
    expect(llmConfigFromEnv({ model: 'm', timeout: '1000' }, {}).timeoutMs).toBe(1000)
  })
})
