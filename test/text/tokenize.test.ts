import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildTfIdfIndex } from '../../src/main/text/tfidf'
import { TermDictionary, tokenize } from '../../src/main/text/tokenize'
import { expectSameIndex } from './same-index'

describe('tokenize', () => {
  it('gives every Chinese word as bigrams and keeps English words next to them', () => {
    const terms = tokenize('Python排序算法实现经验总结')
    expect(terms).toEqual(expect.arrayContaining(['python', '排序', '算法', '实现', '经验', '总结']))
  })

  it('indexes each CJK character and each pair of neighbours, in text order', () => {
    expect(tokenize('排序算法')).toEqual(['排', '序', '排序', '算', '序算', '法', '算法'])
    expect(tokenize('React组件性能优化')).toEqual(['react', '组', '件', '组件', '性', '件性', '能', '性能', '优', '能优', '化', '优化'])
  })

  it('makes a query share terms with a text that holds its words apart', () => {
    const doc = new Set(tokenize('部署服务时遇到超时错误，需要重试'))
    expect(tokenize('部署超时重试').filter((t) => t.length === 2 && doc.has(t))).toEqual(['部署', '超时', '重试'])
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
  it('never breaks astral characters and keeps every word', () => {
    const text = '𠀀数据'.repeat(400)
    const terms = tokenize(text)
    expect(terms.every((t) => !/[\uD800-\uDFFF]/.test(t) || /^(?:[\uD800-\uDBFF][\uDC00-\uDFFF]|[^\uD800-\uDFFF])+$/.test(t))).toBe(true)
    expect(terms.filter((t) => t === '数据').length).toBeGreaterThanOrEqual(399)
  })
})

describe('mixed letter-digit identifiers', () => {
  it('keeps identifiers whose split would lose one-character pieces', () => {
    expect(tokenize('l2s')).toEqual(['l2s'])
    expect(tokenize('v0')).toEqual(['v0'])
    expect(tokenize('gpt4o')).toEqual(['gpt', 'gpt4o'])
    expect(tokenize('utf8')).toEqual(['utf', 'utf8'])
    expect(tokenize('k8s and x86_64')).toEqual(['k8s', '86', 'x86', '64'])
    expect(tokenize('use the L2S model, not V0')).toEqual(['l2s', 'model', 'v0'])
  })

  it('joins digit→letter only where no Capitalised word starts, and leaves clean splits alone', () => {
    expect(tokenize('HTTP2Server')).toEqual(['http', 'http2', 'server'])
    expect(tokenize('GPT4oMini')).toEqual(['gpt', 'gpt4o', 'mini'])
    expect(tokenize('Win10Pro')).toEqual(['win', '10', 'pro'])
    expect(tokenize('abc123')).toEqual(['abc', '123'])
  })

  it('treats them the same next to Chinese text and in non-ASCII lines', () => {
    expect(tokenize('部署l2s模型')).toEqual(expect.arrayContaining(['l2s', '部署', '模型']))
    expect(tokenize('café gpt4o')).toEqual(['café', 'gpt', 'gpt4o'])
  })

  it('makes two skills about the same identifier share a term', () => {
    const a = new Set(tokenize('Fine-tune the l2s ranker'))
    const b = new Set(tokenize('Evaluate l2s on the benchmark'))
    expect([...a].filter((t) => b.has(t))).toEqual(['l2s'])
  })
})

describe('the index builder’s word scan (word-scan.ts + TermDictionary)', () => {
  const same = (docs: string[]): void => expectSameIndex(buildTfIdfIndex(docs), buildTfIdfIndex(docs, { tokenizer: (s) => tokenize(s) }))

  it('counts exactly tokenize’s terms, on any text', () => {
    const piece = fc.constantFrom(
      'running', 'Running', 'RUN', 'the', 'a', 'x', 'l2s', 'gpt4o', 'Base64Encoder', 'HTTPServer', 'snake_case', '42', '7',
      'café', 'naïve', '排序', '算法', '组件', '的', '是', '我们', '一个', 'ひらがな', 'カタカナ', '한국어', 'Ελληνικά', '𠀀', '𪚥', ' ', ' ', '\n', '\r\n', '\t', '-', '.', ',', '—', '→', '#', '`', "it's"
    )
    const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''))
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), same), { numRuns: 300 })
  })

  it('matches where Chinese lines give more terms than the scan sized its tables for', () => {
    // Lines with Chinese or other non-ASCII text go through tokenize; the documents after them must still get
    // every scanned word (a typed array drops writes past its end without a word).
    for (const n of [100, 160, 240]) {
      const docs = Array.from({ length: n }, (_, i) => [`Skill ${i % 97}`, i % 3 === 0 ? '使用 MCP 工具' : 'Use when sorting', `Rube MCP: step ${i % 13} of HTTPServer\n- gpt4o naïve ${i % 7}`])
      const df = new Map<string, number>()
      for (const doc of docs) for (const t of new Set(tokenize(doc.join('\n')))) df.set(t, (df.get(t) ?? 0) + 1)
      const index = buildTfIdfIndex(docs)
      expect(Object.fromEntries(index.vocab.map((t, i) => [t, index.df[i]]))).toEqual(Object.fromEntries(df))
    }
  })

  it('matches on long texts and many documents', () => {
    same([Array.from({ length: 300 }, (_, i) => `Line ${i}: Sorting arrays quickly with TypeScript, gpt4o and l2s; 排序算法 ${i % 7}`).join('\n'), 'sorting arrays', 'Sorting Arrays'])
  })
})

describe('TermDictionary: pairs found by number and by string are one term', () => {
  // Characters in and out of the pair range, particles and two-character stop words (我们, 一个).
  const chars = fc.constantFrom(...'排序算法组件我们一个的是在ぁカ丂鿿㐀', '𠀀', 'a', ' ')
  const text = fc.array(chars, { maxLength: 12 }).map((c) => c.join(''))
  const op = fc.oneof(text.map((t) => ({ push: t })), fc.array(chars, { minLength: 1, maxLength: 2 }).map((c) => ({ term: c.join('') })))

  it('gives every term one id, whichever way it comes first, and pushTermIds still yields tokenize’s terms', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const dict = new TermDictionary()
        for (const o of ops) {
          if ('term' in o) {
            const id = dict.idOf(o.term)
            expect(dict.terms[id]).toBe(o.term)
            expect(dict.idOf(o.term)).toBe(id)
          } else {
            const ids: number[] = []
            dict.pushTermIds(o.push, ids)
            expect(ids.map((i) => dict.terms[i])).toEqual(tokenize(o.push))
          }
        }
        // Distinct terms, distinct ids: no term entered twice by the two routes; find agrees and adds nothing.
        expect(new Set(dict.terms).size).toBe(dict.terms.length)
        dict.terms.forEach((t, i) => expect(dict.find(t)).toBe(i))
        for (const probe of ['排算', '件组', '我们', 'zz']) if (!dict.terms.includes(probe)) expect(dict.find(probe)).toBeUndefined()
        expect(new Set(dict.terms).size).toBe(dict.terms.length)
      }),
      { numRuns: 500 }
    )
  })

  it('keeps dropping a stop-word pair that idOf was asked for', () => {
    const dict = new TermDictionary()
    const id = dict.idOf('我们')
    expect(dict.terms[id]).toBe('我们')
    const ids: number[] = []
    dict.pushTermIds('我们排序', ids)
    expect(ids.map((i) => dict.terms[i])).toEqual(tokenize('我们排序'))
    expect(tokenize('我们排序')).not.toContain('我们')
  })
})
