import { describe, expect, it } from 'vitest'
import { tokenize } from '../../src/main/text/tokenize'

describe('tokenize', () => {
  it('segments Chinese words and keeps English words next to them', () => {
    const terms = tokenize('Python排序算法实现经验总结')
    expect(terms).toEqual(expect.arrayContaining(['python', '排序', '算法', '实现', '经验', '总结']))
  })

  it('adds no bigrams across real word boundaries', () => {
    const terms = tokenize('排序算法')
    expect(terms).toEqual(['排序', '算法'])
  })

  it('recovers compounds the segmenter splits through bigrams', () => {
    const terms = tokenize('React组件性能优化')
    expect(terms).toContain('组件')
    expect(terms).toContain('优化')
  })

  it('drops Chinese stop words and bigrams around particles', () => {
    const terms = tokenize('我们的排序')
    expect(terms).not.toContain('的')
    expect(terms).not.toContain('我们')
    expect(terms).not.toContain('们的')
    expect(terms).not.toContain('的排')
    expect(terms).toContain('排序')
  })

  it('splits CamelCase, acronyms, digits and snake_case, lowercases and stems', () => {
    expect(tokenize('JerichoEnvAcorncourt')).toEqual(['jericho', 'env', 'acorncourt'])
    expect(tokenize('HTTPServer')).toEqual(['http', 'server'])
    expect(tokenize('snake_case_name')).toEqual(['snake', 'case', 'name'])
    expect(tokenize('base64Encoder')).toEqual(['base', '64', 'encod'])
    expect(tokenize('Running the TESTS quickly')).toEqual(['run', 'test', 'quickli'])
  })

  it('drops English stop words and one-letter tokens', () => {
    expect(tokenize('This is a test of the x system')).toEqual(['test', 'system'])
  })

  it('returns nothing for empty, whitespace or punctuation-only text', () => {
    expect(tokenize('')).toEqual([])
    expect(tokenize('  \n\n\t ')).toEqual([])
    expect(tokenize('--- ### !!! ，。')).toEqual([])
  })

  it('handles CRLF line endings like LF', () => {
    expect(tokenize('alpha beta\r\ngamma')).toEqual(tokenize('alpha beta\ngamma'))
  })

  it('handles a long single line and long multi-line text', () => {
    const line = '快速排序 quicksort '.repeat(3000)
    const terms = tokenize(line)
    expect(terms.filter((t) => t === 'quicksort')).toHaveLength(3000)
    const text = Array.from({ length: 2000 }, (_, i) => `第${i}行 使用数据库连接池 connection pool`).join('\n')
    expect(tokenize(text).filter((t) => t === 'pool')).toHaveLength(2000)
  })

  it('is deterministic', () => {
    const s = 'Skill合并策略: merge near-duplicate skills, 保留每个不同的段落'
    expect(tokenize(s)).toEqual(tokenize(s))
  })
})

describe('tokenize on long CJK runs', () => {
  it('cuts runs without breaking astral characters and keeps every word', () => {
    const text = '𠀀数据'.repeat(400)
    const terms = tokenize(text)
    expect(terms.every((t) => !/[\uD800-\uDFFF]/.test(t) || /^(?:[\uD800-\uDBFF][\uDC00-\uDFFF]|[^\uD800-\uDFFF])+$/.test(t))).toBe(true)
    expect(terms.filter((t) => t === '数据').length).toBeGreaterThanOrEqual(399)
  })
})
