import { describe, expect, it } from 'vitest'
import { surfaceWords } from '../../src/main/curate/evidence-words'
import { tokenize } from '../../src/main/text/tokenize'

/** The terms two texts share, in the first text's order (what the index would rank). */
const shared = (a: string, b: string): string[] => {
  const inB = new Set(tokenize(b))
  return [...new Set(tokenize(a))].filter((t) => inB.has(t))
}

describe('shared words a person reads', () => {
  it('turns Chinese character pairs into the stretch of text they cover, and leaves lone characters out', () => {
    const a = '部署超时后自动重试，记录日志'
    const b = '遇到部署超时要重试三次'
    const words = surfaceWords(shared(a, b), [a, b])
    expect(words).toEqual(['部署超时', '重试'])
  })

  it('keeps each word once, English beside Chinese, and only what the texts say', () => {
    const a = 'Retrying HTTP requests: 请求超时的时候重试请求'
    const b = 'retry the request when 请求超时'
    const words = surfaceWords(shared(a, b), [a, b])
    expect(words).toEqual(expect.arrayContaining(['retry', 'request', '请求超时']))
    expect(new Set(words).size).toBe(words.length)
    for (const w of words) expect(`${a}\n${b}`.toLowerCase()).toContain(w)
    expect(words.some((w) => [...w].length === 1)).toBe(false)
  })
})
