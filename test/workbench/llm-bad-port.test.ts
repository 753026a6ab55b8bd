/**
 * A base URL on a port fetch refuses ("bad port": 9, 25, 6000…) gets its own clear message in the connection
 * test and the client, in English and Chinese, instead of "not valid" or "fetch failed (bad port)".
 */
import { describe, expect, it } from 'vitest'
import { createOpenAiClient } from '../../src/main/llm/openai-client'
import { LlmError } from '../../src/main/llm/errors'
import { classifyLlmProblem, testLlmConnection } from '../../src/main/workbench/llm-test'
import { translateText } from '../../src/renderer/i18n/messages-errors'
import { baseUrlProblem, blockedPortOf } from '../../src/shared/base-url'
import { coded } from '../../src/shared/error-codes'
import { MESSAGES as messages } from '../../src/renderer/i18n/messages'

const CLEAR = "port 9 is blocked by the runtime for safety (a 'bad port'); use the endpoint's real port"

describe('bad ports', () => {
  it('knows the ports fetch blocks, and only those', () => {
    expect(blockedPortOf('http://127.0.0.1:9/v1')).toBe(9)
    expect(blockedPortOf('https://example.com:6000/v1')).toBe(6000)
    expect(blockedPortOf('http://127.0.0.1:11434/v1')).toBeUndefined()
    expect(blockedPortOf('http://example.com/v1')).toBeUndefined()
    // every request to it would fail, so it is a problem of the URL itself: Settings does not save it
    expect(baseUrlProblem('http://localhost:25/v1')).toBe('blocked_port')
    expect(baseUrlProblem('http://localhost:11434/v1')).toBeNull()
  })

  it('the connection test says the port is blocked, with no request made', async () => {
    let created = 0
    const result = await testLlmConnection(
      { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 1000, apiKey: undefined },
      () => {
        created++
        throw new Error('not reached')
      },
      String
    )
    expect(result).toMatchObject({ ok: false, problem: 'bad_port', message: CLEAR })
    expect(created).toBe(0)
  })

  it('the client refuses it up front instead of retrying a bare "fetch failed (bad port)"', () => {
    const attempt = (): unknown => createOpenAiClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 3 })
    expect(attempt).toThrow(CLEAR)
    let err: unknown
    try {
      attempt()
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(LlmError)
    expect(classifyLlmProblem(err)).toBe('bad_port')
  })

  it('a runtime "bad port" failure from any path is classed as bad_port, not bad_url', () => {
    expect(classifyLlmProblem(new LlmError('connection', coded('llm.unreachable_retried', { cause: coded('llm.fetch_failed', { detail: 'bad port' }), attempts: 4 }), 4))).toBe('bad_port')
  })

  it('reads in Chinese, and the UI has advice in both languages', () => {
    expect(translateText(CLEAR, 'zh')).toBe('端口 9 出于安全考虑被运行时禁止（“bad port”）：请使用接口的实际端口')
    expect(translateText(`not saved: ${CLEAR}`, 'zh')).toBe('未保存：端口 9 出于安全考虑被运行时禁止（“bad port”）：请使用接口的实际端口')
    expect(translateText(CLEAR, 'en')).toBe(CLEAR)
    expect(messages.en['llmTest.bad_port']).toMatch(/blocks this port/)
    expect(messages.zh['llmTest.bad_port']).toMatch(/端口/)
  })
})
