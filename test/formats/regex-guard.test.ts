import { describe, expect, it } from 'vitest'
import { matchTriggers } from '../../src/main/formats/matcher'
import { checkPattern, execWithTimeout, findCatastrophicShape, MAX_PATTERN_CHARS, RegexTimeoutError } from '../../src/main/formats/regex-guard'

describe('checkPattern (static check)', () => {
  it.each(['^(a+)+$', '(a*)*', '(a|a)*', '(.*a){2,}', '((ab)+c)*', '(\\w+\\s?)*$', '(?:x+y?)+', '(a|ab)+', '([a-z]+)*'])('rejects the catastrophic shape %s', (p) => {
    const r = checkPattern(p)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.reason).toMatch(/catastrophic backtracking/)
  })

  it.each(['用户.*认证|login|auth', '^(foo|bar)$', '(login)+', 'migrat(e|ion)|schema change', '(?:ab){3}', '\\d{4}-\\d{2}', '[(a+)+]', '\\(a+\\)+'])('accepts the safe pattern %s', (p) => {
    expect(checkPattern(p).ok).toBe(true)
  })

  it('rejects invalid regular expressions with the engine message', () => {
    const r = checkPattern('login((')
    expect(r).toMatchObject({ ok: false })
    if (!r.ok) expect(r.reason).toMatch(/^invalid regular expression: .*/)
  })

  it('rejects empty and over-long patterns', () => {
    expect(checkPattern('')).toEqual({ ok: false, reason: 'the pattern is empty', problem: { messageCode: 'regex.empty', params: {}, text: 'the pattern is empty' } })
    const r = checkPattern('a'.repeat(MAX_PATTERN_CHARS + 1))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.reason).toContain(`limit is ${MAX_PATTERN_CHARS}`)
  })

  it('finds no shape in plain literals and bounded repeats', () => {
    expect(findCatastrophicShape('hello world')).toBeNull()
    expect(findCatastrophicShape('(ab){2}(cd){3}')).toBeNull()
  })
})

describe('time-bounded matching', () => {
  it('stops ^(a+)+$ on "aaaa…!" with a clear error instead of hanging', () => {
    // Bypasses the static check on purpose: the time bound is the second line of defence.
    const subject = 'a'.repeat(40) + '!'
    expect(() => execWithTimeout(/^(a+)+$/, subject, 30)).toThrow(RegexTimeoutError)
    expect(() => execWithTimeout(/^(a+)+$/, subject, 30)).toThrow(/took longer than 30 ms/)
  })

  it('returns the matched text or null', () => {
    expect(execWithTimeout(/log\w+/i, 'How do I LOGIN here?')).toBe('LOGIN')
    expect(execWithTimeout(/xyz/, 'abc')).toBeNull()
  })

  it('matchTriggers reports unsafe, invalid and slow patterns in `rejected` and still matches the rest', () => {
    const slow = '^' + '.*'.repeat(9) + 'x$' // polynomial, passes the static check, too slow on a long subject
    const result = matchTriggers(
      'Please login: ' + 'b'.repeat(3000),
      [
        { id: 's1', name: 'auth', trigger_pattern: '用户.*认证|login|auth', confidence: 0.95 },
        { id: 's2', name: 'evil', trigger_pattern: '^(a+)+$', confidence: 0.99 },
        { id: 's3', name: 'broken', trigger_pattern: 'login((' },
        { id: 's4', name: 'slow', trigger_pattern: slow },
        { id: 's5', name: 'other', trigger_pattern: 'flyway' },
        { id: 's6', name: 'after a timeout', trigger_pattern: 'please' }
      ],
      // A generous bound: the slow pattern never finishes, the others take microseconds even on a loaded machine.
      { timeoutMs: 250 }
    )
    // The sandbox still works after a match was cut off (s6 runs after s4 timed out).
    expect(result.matches.map((m) => [m.id, m.matched])).toEqual([['s1', 'login'], ['s6', 'Please']])
    expect(Object.fromEntries(result.rejected.map((r) => [r.id, r.reason.split(':')[0]]))).toEqual({
      s2: 'nested quantifier',
      s3: 'invalid regular expression',
      s4: expect.stringMatching(/^matching the pattern/)
    })
  })

  it('sorts matches by confidence, then name', () => {
    const r = matchTriggers('login and auth', [
      { id: 'a', name: 'zeta', trigger_pattern: 'auth', confidence: 0.5 },
      { id: 'b', name: 'alpha', trigger_pattern: 'login' },
      { id: 'c', name: 'beta', trigger_pattern: 'login', confidence: 0.9 }
    ])
    expect(r.matches.map((m) => m.id)).toEqual(['c', 'a', 'b'])
  })
})
