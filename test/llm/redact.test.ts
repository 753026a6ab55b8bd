import { describe, expect, it } from 'vitest'
import { maskKey, redact } from '../../src/main/llm/redact'
import { backoffDelayMs, parseRetryAfter } from '../../src/main/llm/retry'

describe('redact', () => {
  it('removes the given key everywhere', () => {
    const key = 'my-custom-key-123456'
    expect(redact(`failed with ${key} and again ${key}`, [key])).toBe('failed with *** and again ***')
  })
  it('removes key-shaped tokens it was not told about', () => {
    const out = redact('Authorization: Bearer abcdefghijkl sk-proj-ABCDEFGHIJ1234 api_key=zzzzzzzz https://u:p4ss@host/x')
    expect(out).not.toContain('abcdefghijkl')
    expect(out).not.toContain('sk-proj-ABCDEFGHIJ1234')
    expect(out).not.toContain('zzzzzzzz')
    expect(out).not.toContain('p4ss')
    expect(out).toContain('Bearer ***')
  })
  it('leaves ordinary text alone and ignores tiny keys', () => {
    expect(redact('the task ran fine', ['x'])).toBe('the task ran fine')
  })
  it('masks keys for display', () => {
    expect(maskKey('sk-abcdefghijklmnop')).toBe('sk-…mnop')
    expect(maskKey('')).toBe('')
    expect(maskKey('short')).toBe('…')
  })
})

describe('backoff', () => {
  it('grows exponentially with jitter inside [exp/2, exp], capped', () => {
    const p = { baseMs: 100, maxMs: 1000 }
    expect(backoffDelayMs(1, p, () => 0)).toBe(50)
    expect(backoffDelayMs(1, p, () => 1)).toBe(100)
    expect(backoffDelayMs(3, p, () => 1)).toBe(400)
    expect(backoffDelayMs(10, p, () => 1)).toBe(1000)
    expect(backoffDelayMs(2, p, () => 0.5, 300)).toBe(300)
    expect(backoffDelayMs(2, p, () => 0.5, 99_999)).toBe(1000)
  })
  it('parses Retry-After', () => {
    expect(parseRetryAfter('2')).toBe(2000)
    expect(parseRetryAfter(null)).toBeUndefined()
    expect(parseRetryAfter('nonsense')).toBeUndefined()
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 5_000)).toBe(5_000)
  })
})
