import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAI
} from 'openai'
import { blockedPortMessage, blockedPortOf } from '../../shared/base-url'
import { coded, type CodedText } from '../../shared/error-codes'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { DEFAULT_SETTINGS, type Settings } from '../../shared/types'
import { LlmError } from './errors'
import { redact, redactCoded } from './redact'
import { backoffDelayMs, parseRetryAfter, sleep } from './retry'
import type { ChatMessage, ChatReply, ChatRequest, LlmClient, LlmConfig, LlmToolCall } from './types'

const DEFAULT_TIMEOUT_MS = 60_000
const DEFAULT_MAX_RETRIES = 3
/** Local servers (Ollama, LM Studio…) take no key, but the SDK refuses to start without one. */
const NO_KEY = 'no-key'

/** Extra hooks for tests and hosts: a random source for jitter and a listener for each attempt. */
export interface OpenAiClientOptions {
  random?: () => number
  /** Called before every HTTP attempt (1-based) and before every backoff wait; messages are redacted. */
  onAttempt?: (info: { attempt: number; delayMs?: number; reason?: string }) => void
}

/** An LlmClient for any OpenAI-compatible chat-completions endpoint, with retries, timeouts, abort and redaction. */
export function createOpenAiClient(config: LlmConfig, options: OpenAiClientOptions = {}): LlmClient {
  if (!config.baseUrl || !/^https?:\/\//i.test(config.baseUrl)) {
    throw new LlmError('config', coded('llm.bad_base_url', { url: redact(String(config.baseUrl ?? ''), [config.apiKey]) }), 0)
  }
  // fetch would refuse every attempt with a bare "bad port": say so once, before any retry
  const blocked = blockedPortOf(config.baseUrl)
  if (blocked !== undefined) {
    throw new LlmError('config', blockedPortMessage(blocked), 0)
  }
  if (!config.model) {
    throw new LlmError('config', coded('llm.no_model'), 0)
  }
  const secrets = [config.apiKey]
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxRetries = Math.max(0, config.maxRetries ?? DEFAULT_MAX_RETRIES)
  const policy = { baseMs: config.retryBaseMs ?? 500, maxMs: config.retryMaxMs ?? 8_000 }
  const sdk = new OpenAI({
    apiKey: config.apiKey || NO_KEY,
    baseURL: config.baseUrl,
    timeout: timeoutMs,
    // our own loop retries: it counts attempts, honours the abort signal between them and redacts every error
    maxRetries: 0
  })

  async function once(req: ChatRequest): Promise<ChatReply> {
    const completion = await sdk.chat.completions.create(
      {
        model: config.model,
        messages: req.messages.map(toSdkMessage),
        temperature: req.temperature ?? config.temperature,
        ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
        ...(req.tools?.length ? { tools: req.tools as ChatCompletionTool[] } : {})
      },
      { signal: req.signal, timeout: timeoutMs, maxRetries: 0 }
    )
    const choice = completion?.choices?.[0]
    if (!choice || !choice.message) {
      throw new LlmError('bad_answer', coded('llm.no_choices'), 1)
    }
    const toolCalls: LlmToolCall[] = []
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type === 'function') {
        toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' })
      }
    }
    return {
      text: typeof choice.message.content === 'string' ? choice.message.content : '',
      toolCalls,
      model: completion.model || config.model
    }
  }

  return {
    model: config.model,
    async chat(req: ChatRequest): Promise<ChatReply> {
      let attempt = 0
      for (;;) {
        attempt++
        options.onAttempt?.({ attempt })
        try {
          return await once(req)
        } catch (raw) {
          const err = classify(raw, attempt, timeoutMs, secrets)
          if (!err.retryable || attempt > maxRetries) {
            throw err
          }
          const delayMs = backoffDelayMs(attempt, policy, options.random, retryAfterOf(raw))
          options.onAttempt?.({ attempt, delayMs, reason: err.message })
          try {
            await sleep(delayMs, req.signal)
          } catch {
            throw new LlmError('aborted', coded('llm.cancelled'), attempt)
          }
        }
      }
    }
  }
}

function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') {
    return { role: 'tool', content: m.content, tool_call_id: m.tool_call_id ?? '' }
  }
  return { role: m.role, content: m.content }
}

function retryAfterOf(raw: unknown): number | undefined {
  if (raw instanceof APIError && raw.headers) {
    return parseRetryAfter(raw.headers.get('retry-after'))
  }
  return undefined
}

/** Maps any thrown value to an LlmError with a redacted, one-line message. */
function classify(raw: unknown, attempts: number, timeoutMs: number, secrets: (string | undefined)[]): LlmError {
  if (raw instanceof LlmError) {
    return new LlmError(raw.code, redactCoded(raw, secrets), attempts, raw.status)
  }
  const retried = attempts > 1
  if (raw instanceof APIUserAbortError || (raw instanceof Error && raw.name === 'AbortError')) {
    return new LlmError('aborted', coded('llm.cancelled'), attempts)
  }
  if (raw instanceof APIConnectionTimeoutError) {
    return new LlmError('timeout', retried ? coded('llm.timeout_retried', { ms: timeoutMs, attempts }) : coded('llm.timeout', { ms: timeoutMs }), attempts)
  }
  if (raw instanceof APIConnectionError) {
    // fetch hides the system error (ECONNREFUSED, ENOTFOUND, a TLS failure…) a few causes down: name it
    const cause = raw.cause instanceof Error ? causeOf(raw.cause.message, systemErrorOf(raw), secrets) : null
    const message = cause === null ? (retried ? coded('llm.unreachable_after', { attempts }) : coded('llm.unreachable')) : retried ? coded('llm.unreachable_retried', { cause, attempts }) : coded('llm.unreachable_because', { cause })
    return new LlmError('connection', message, attempts)
  }
  if (raw instanceof APIError) {
    const status = raw.status ?? 0
    const detail = redact(firstLine(raw.message), secrets)
    if (status === 429) {
      return new LlmError('rate_limited', retried ? coded('llm.rate_limited_retried', { attempts, detail }) : coded('llm.rate_limited', { detail }), attempts, status)
    }
    if (status === 401 || status === 403) {
      return new LlmError('auth', coded('llm.auth', { status }), attempts, status)
    }
    if (status === 408 || status === 409 || status >= 500) {
      return new LlmError('server', retried ? coded('llm.server_retried', { status, attempts, detail }) : coded('llm.server', { status, detail }), attempts, status)
    }
    return new LlmError('bad_request', coded('llm.rejected', { status, detail }), attempts, status)
  }
  const message = raw instanceof Error ? raw.message : String(raw)
  return new LlmError('bad_answer', coded('llm.unexpected', { detail: redact(firstLine(message), secrets) }), attempts)
}

/** Why a connection failed, as a param: fetch's own "fetch failed" by code (words it in the reader's language). */
function causeOf(message: string, system: string, secrets: (string | undefined)[]): CodedText | string {
  if (message === 'fetch failed') return system ? coded('llm.fetch_failed', { detail: redact(system, secrets) }) : coded('llm.fetch_failed_plain')
  return redact(system ? `${message} (${system})` : message, secrets)
}

/** The innermost cause's error code and message (`ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9`), or ''. */
function systemErrorOf(err: unknown): string {
  let found = ''
  let current: unknown = err
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof e.code === 'string' && /^[A-Z0-9_]+$/.test(e.code)) {
      found = `${e.code}${typeof e.message === 'string' && e.message && !e.message.includes(e.code) ? `: ${firstLine(e.message)}` : ''}`
    } else if (!found && depth > 1 && typeof e.message === 'string' && e.message) {
      found = firstLine(e.message) // e.g. fetch's own "bad port"
    }
    current = e.cause
  }
  return found
}

function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim()
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

/** Command-line flags that configure the model (`--base-url`, `--model`). */
export interface LlmFlags {
  'base-url'?: string
  model?: string
  temperature?: string | number
  timeout?: string | number
}

/**
 * Resolves the model connection: flags first, then the environment (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
 * `OPENAI_MODEL`), then the settings. The key only comes from the environment or the settings, never a flag
 * (flags end up in shell history and process lists).
 */
export function llmConfigFromEnv(
  flags: LlmFlags,
  env: NodeJS.ProcessEnv,
  settings: Pick<Settings, 'llm'> = DEFAULT_SETTINGS
): LlmConfig {
  const num = (v: string | number | undefined): number | undefined => {
    if (v === undefined || v === '') {
      return undefined
    }
    const n = Number(v)
    return Number.isFinite(n) ? n : undefined
  }
  return {
    baseUrl: flags['base-url'] || env.OPENAI_BASE_URL || settings.llm.baseUrl,
    model: flags.model || env.OPENAI_MODEL || settings.llm.model,
    apiKey: env.OPENAI_API_KEY || settings.llm.apiKey || undefined,
    temperature: num(flags.temperature) ?? settings.llm.temperature,
    timeoutMs: num(flags.timeout) ?? settings.llm.timeoutMs
  }
}
