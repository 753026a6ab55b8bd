/**
 * The Settings "Test connection" button: one short request to the endpoint, and a verdict that names the cause
 * (bad URL, refused, unknown host, TLS, credentials, timeout, wrong path or model), so each gets its own advice.
 */
import type { LlmTestProblem, LlmTestResult } from '../../shared/api'
import { BASE_URL_PROBLEM_TEXT, baseUrlProblem, blockedPortOf, blockedPortText } from '../../shared/base-url'
import type { LlmClient, LlmConfig } from '../llm/types'

/** Which cause an error of the model adapter points to (pure). */
export function classifyLlmProblem(err: unknown): LlmTestProblem {
  const e = (err ?? {}) as { code?: unknown; message?: unknown; status?: unknown }
  const code = typeof e.code === 'string' ? e.code : ''
  const message = typeof e.message === 'string' ? e.message : String(err)
  if (/bad port|blocked by the runtime/i.test(message)) return 'bad_port'
  if (code === 'config') return /model name/i.test(message) ? 'no_model' : 'bad_url'
  if (code === 'auth') return 'auth'
  if (code === 'timeout') return 'timeout'
  if (code === 'connection') {
    if (/ECONNREFUSED/.test(message)) return 'refused'
    if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/.test(message)) return 'unknown_host'
    if (/SSL|TLS|certificate|CERT_|EPROTO|self[- ]signed/i.test(message)) return 'tls'
    if (/ETIMEDOUT|timed out/i.test(message)) return 'timeout'
    return 'other'
  }
  if (code === 'bad_request' && e.status === 404) return 'not_found'
  if (code === 'bad_request' || code === 'server' || code === 'rate_limited') return 'http'
  return 'other'
}

export interface LlmTestInput {
  baseUrl: string
  model: string
  timeoutMs: number
  apiKey: string | undefined
}

/** Sends "Reply with OK" to the endpoint and says how it went; never throws. */
export async function testLlmConnection(
  input: LlmTestInput,
  createLlm: (config: LlmConfig) => LlmClient | Promise<LlmClient>,
  describeError: (err: unknown) => string
): Promise<LlmTestResult> {
  const started = Date.now()
  const urlProblem = baseUrlProblem(input.baseUrl)
  if (urlProblem && urlProblem !== 'blocked_port') {
    return { ok: false, model: input.model, latencyMs: 0, message: BASE_URL_PROBLEM_TEXT[urlProblem], problem: 'bad_url' }
  }
  const blocked = blockedPortOf(input.baseUrl)
  if (blocked !== undefined) {
    return { ok: false, model: input.model, latencyMs: 0, message: blockedPortText(blocked), problem: 'bad_port' }
  }
  if (!input.model.trim()) {
    return { ok: false, model: input.model, latencyMs: 0, message: 'no model name is set', problem: 'no_model' }
  }
  try {
    const client = await createLlm({ baseUrl: input.baseUrl.trim(), model: input.model.trim(), apiKey: input.apiKey, timeoutMs: Math.min(input.timeoutMs, 30_000), maxRetries: 0 })
    const reply = await client.chat({ messages: [{ role: 'user', content: 'Reply with the single word OK.' }], maxTokens: 5 })
    return { ok: true, model: reply.model || input.model, latencyMs: Date.now() - started, message: `The model answered: ${reply.text.slice(0, 80)}` }
  } catch (err) {
    const problem = classifyLlmProblem(err)
    // the runtime's own words ("fetch failed (bad port)") do not say what to change
    const port = problem === 'bad_port' ? blockedPortOf(input.baseUrl) : undefined
    const message = port !== undefined ? blockedPortText(port) : describeError(err)
    return { ok: false, model: input.model, latencyMs: Date.now() - started, message, problem }
  }
}
