import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineAt } from '../../src/main/text/boilerplate'
import { docTermsAsync, lineOfDoc, type DocTerms, type TermTable } from '../../src/main/text/doc-terms'

describe('lineOfDoc', () => {
  it('gives the line of the joined text at every line start, without joining the parts', () => {
    const piece = fc.stringMatching(/^[ab\n ]{0,12}$/)
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), (parts) => {
        const text = parts.join('\n')
        const starts = [0]
        for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1)
        for (const start of starts) {
          expect(lineOfDoc(parts, start)).toBe(lineAt(text, start))
          expect(lineOfDoc(text, start)).toBe(lineAt(text, start))
        }
      }),
      { numRuns: 400 }
    )
  })

  it('finds a line in the body after a title and usage conditions', () => {
    const parts = ['Deploy with retries', 'when a deploy times out', '## Steps\n- retry twice\n- then roll back']
    const text = parts.join('\n')
    expect(lineOfDoc(parts, text.indexOf('- retry'))).toBe('- retry twice')
    expect(lineOfDoc(parts, text.indexOf('when'))).toBe('when a deploy times out')
  })
})

describe('pass 1 with reused rows', () => {
  type Canon = Array<{ terms: string[]; lines: number[] }>
  /** Each document's terms with counts (sorted) and its line keys and starts: what does not depend on term ids. */
  const canon = (t: DocTerms): Canon =>
    Array.from({ length: t.docs }, (_, d) => {
      const terms: string[] = []
      for (let e = t.docPtr[d]!; e < t.docPtr[d + 1]!; e++) terms.push(`${t.dict.terms[t.entTerm[e]!]}:${t.entCount[e]}`)
      const lines: number[] = []
      for (let k = t.linePtr[d]!; k < t.linePtr[d + 1]!; k++) lines.push(t.lines!.key[k]!, t.lines!.start[k]!)
      return { terms: terms.sort(), lines }
    })
  const copyTable = (t: TermTable): TermTable => ({ ...t, vocab: [...t.vocab], docPtr: t.docPtr.slice(), entTerm: t.entTerm.slice(), entCount: t.entCount.slice(), linePtr: t.linePtr.slice(), lineKey: t.lineKey.slice(), lineStart: t.lineStart.slice() })
  const word = fc.constantFrom('deploy', 'deploying', 'retry', 'docker', 'compose', 'timeout', 'HTTPServer', '部署超时', 'the', 'v2')
  const doc = fc.array(fc.array(word, { maxLength: 6 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'))

  it('gives what a scan of every document gives, whatever rows are reused, in any order, and from a table naming a term twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: -1, max: 7 }), { minLength: 8, maxLength: 8 }), fc.boolean(), async (texts, picks, twice) => {
        // the table: a scan of the documents, kept before boilerplate is taken out
        let table: TermTable | undefined
        await docTermsAsync(texts, { boilerplate: {}, workers: 0, onScanned: (t) => (table = copyTable(t)) })
        // (a table of empty documents has no term to name twice)
        if (twice && table!.vocab.length > 0) table = { ...table!, vocab: [...table!.vocab, table!.vocab[0]!] }
        // this build: the documents in another order, some given no row (scanned again)
        const order = texts.map((_, i) => (picks[i]! >= 0 ? picks[i]! % texts.length : i))
        const docs = order.map((i) => texts[i]!)
        const rowOf = Int32Array.from(order, (i, d) => (picks[d]! < 0 ? -1 : i))
        const reused = await docTermsAsync(docs, { boilerplate: {}, workers: 0, reuse: { table: table!, rowOf } })
        const scanned = await docTermsAsync(docs, { boilerplate: {}, workers: 0 })
        expect(canon(reused)).toEqual(canon(scanned))
      }),
      { numRuns: 150 }
    )
  })
})
