/**
 * The lowering of a high finding to medium for a warning ("never pipe `curl … | sh`"), scored on the labelled
 * sentences of bench/labels/audit-cautionary.json: the walk-54 dodge (a negation elsewhere in the sentence) stays
 * high, real warnings stay lowered. Precision and recall of the lowering per split, and on the real lines (read in
 * place from ../shared/data/real).
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { auditText } from '../../src/main/audit/text-audit'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

interface Written {
  split: 'tune' | 'check'
  label: 'warning' | 'step'
  rule: string
  text: string
  why: string
}
interface Real {
  path: string
  line: number
  rule: string
  label: 'warning' | 'step'
}
const LABELS = JSON.parse(fs.readFileSync(path.join(__dirname, '../../bench/labels/audit-cautionary.json'), 'utf8')) as { written: Written[]; real: Real[] }

type Verdict = 'lowered' | 'high' | 'missed'
/** What the audit made of the rule's finding on a prose line of a SKILL.md. */
function verdictOn(text: string, rule: string): Verdict {
  const f = auditText('demo', 'SKILL.md', `---\nname: demo\ndescription: a demo\n---\n\n${text}\n`).find((x) => x.rule === rule)
  if (!f) return 'missed'
  if (f.severity === 'medium' && f.message.includes('written as a warning or example')) return 'lowered'
  return f.severity === 'high' ? 'high' : 'missed'
}

interface Score {
  precision: number
  recall: number
  wrong: string[]
}
function score(items: { label: 'warning' | 'step'; verdict: Verdict; what: string }[]): Score {
  const tp = items.filter((i) => i.label === 'warning' && i.verdict === 'lowered').length
  const fp = items.filter((i) => i.label === 'step' && i.verdict === 'lowered').length
  const warnings = items.filter((i) => i.label === 'warning').length
  const wrong = items.filter((i) => (i.label === 'warning') !== (i.verdict === 'lowered')).map((i) => `${i.label} → ${i.verdict}: ${i.what}`)
  return { precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: warnings === 0 ? 1 : tp / warnings, wrong }
}
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`

describe('the labelled sentences (bench/labels/audit-cautionary.json)', () => {
  for (const split of ['tune', 'check'] as const) {
    it(`${split}: every hostile sentence stays high, the warnings are lowered`, () => {
      const rows = LABELS.written.filter((w) => w.split === split)
      expect(rows.length).toBeGreaterThanOrEqual(24)
      const judged = rows.map((w) => ({ label: w.label, verdict: verdictOn(w.text, w.rule), what: w.text }))
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
    const judged = LABELS.real.map((r) => {
      let text = fs.readFileSync(realPath(r.path), 'utf8')
      // a session's messages are JSON strings: their lines are counted with the escapes undone
      if (r.path.endsWith('.jsonl')) text = text.replace(/\\n/g, '\n').replace(/\\"/g, '"')
      const line = text.split('\n')[r.line - 1]!
      return { label: r.label, verdict: verdictOn(line, r.rule), what: `${r.path}:${r.line}` }
    })
    const s = score(judged)
    console.log(`[audit cautionary real] ${judged.length} lines: precision ${pct(s.precision)}, recall ${pct(s.recall)}${s.wrong.map((w) => `\n  ${w}`).join('')}`)
    expect(judged.every((j) => j.verdict !== 'missed')).toBe(true)
    expect(s.precision).toBe(1)
    expect(s.recall).toBe(1)
  })
})
