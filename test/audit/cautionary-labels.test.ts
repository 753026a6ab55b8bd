/**
 * The lowering of a high finding to medium for a warning ("never pipe `curl … | sh`"), scored on the labelled
 * sentences of bench/labels/audit-cautionary.json: the walk-54 dodge (a negation elsewhere in the sentence) stays
 * high, real warnings stay lowered. Precision and recall of the lowering per split, and on the real lines (read in
 * place from ../shared/data/real).
 */
import { describe, expect, it } from 'vitest'
import { judgeReal, judgeWritten, readAuditLabels, score } from '../../bench/audit-eval'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

const LABELS = readAuditLabels()
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`

describe('the labelled sentences (bench/labels/audit-cautionary.json)', () => {
  for (const split of ['tune', 'check'] as const) {
    it(`${split}: every hostile sentence stays high, the warnings are lowered`, () => {
      const rows = LABELS.written.filter((w) => w.split === split)
      expect(rows.length).toBeGreaterThanOrEqual(24)
      const judged = judgeWritten(split, LABELS)
      const s = score(judged)
      console.log(`[audit cautionary ${split}] ${rows.filter((r) => r.label === 'step').length} steps, ${rows.filter((r) => r.label === 'warning').length} warnings: precision ${pct(s.precision)}, recall ${pct(s.recall)}${s.wrong.map((w) => `\n  ${w}`).join('')}`)
      expect(judged.filter((j) => j.verdict === 'missed').map((j) => j.what), 'each sentence is found by its rule').toEqual([])
      // a step lowered to medium gets past install's hold: none may be
      expect(judged.filter((j) => j.label === 'step' && j.verdict !== 'high').map((j) => j.what)).toEqual([])
      expect(s.precision).toBe(1)
      expect(s.recall).toBeGreaterThanOrEqual(split === 'tune' ? 1 : 0.8)
    })
  }
})

describe.skipIf(!HAS_REAL_DATA)('the real lines (read in place)', () => {
  it('keeps the real warning lowered and the real instructions as they were', () => {
    const judged = judgeReal(realPath(), LABELS)
    const s = score(judged)
    console.log(`[audit cautionary real] ${judged.length} lines: precision ${pct(s.precision)}, recall ${pct(s.recall)}${s.wrong.map((w) => `\n  ${w}`).join('')}`)
    expect(judged.every((j) => j.verdict !== 'missed')).toBe(true)
    expect(s.precision).toBe(1)
    expect(s.recall).toBe(1)
  })
})
