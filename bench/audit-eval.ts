/**
 * Scoring of the audit's "written as a warning" lowering on the labelled sentences of
 * bench/labels/audit-cautionary.json: a warning lowered to medium is a true positive, a step (an instruction,
 * whatever negation it carries elsewhere) lowered is a false positive — it would get past install's hold.
 * Used by `npm run bench -- audit-judgment` and test/audit/cautionary-labels.
 */
import fs from 'node:fs'
import path from 'node:path'
import { auditText } from '../src/main/audit/text-audit'

export interface WrittenLabel {
  split: 'tune' | 'check'
  label: 'warning' | 'step'
  rule: string
  text: string
  why: string
}
export interface RealLabel {
  path: string
  line: number
  rule: string
  label: 'warning' | 'step'
}
export type Verdict = 'lowered' | 'high' | 'missed'
export interface Judged {
  label: 'warning' | 'step'
  verdict: Verdict
  what: string
}
export interface Score {
  precision: number
  recall: number
  wrong: string[]
}

export function readAuditLabels(): { written: WrittenLabel[]; real: RealLabel[] } {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'labels', 'audit-cautionary.json'), 'utf8')) as { written: WrittenLabel[]; real: RealLabel[] }
}

/** What the audit made of the rule's finding on a prose line of a SKILL.md. */
export function verdictOn(text: string, rule: string): Verdict {
  const f = auditText('demo', 'SKILL.md', `---\nname: demo\ndescription: a demo\n---\n\n${text}\n`).find((x) => x.rule === rule)
  if (!f) return 'missed'
  if (f.severity === 'medium' && f.message.includes('written as a warning or example')) return 'lowered'
  return f.severity === 'high' ? 'high' : 'missed'
}

export function score(items: readonly Judged[]): Score {
  const tp = items.filter((i) => i.label === 'warning' && i.verdict === 'lowered').length
  const fp = items.filter((i) => i.label === 'step' && i.verdict === 'lowered').length
  const warnings = items.filter((i) => i.label === 'warning').length
  const wrong = items.filter((i) => (i.label === 'warning') !== (i.verdict === 'lowered')).map((i) => `${i.label} → ${i.verdict}: ${i.what}`)
  return { precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: warnings === 0 ? 1 : tp / warnings, wrong }
}

/** The labelled written sentences of one split, judged. */
export function judgeWritten(split: 'tune' | 'check', labels = readAuditLabels()): Judged[] {
  return labels.written.filter((w) => w.split === split).map((w) => ({ label: w.label, verdict: verdictOn(w.text, w.rule), what: w.text }))
}

/** The labelled real lines, read in place from `realRoot` (../shared/data/real), judged. */
export function judgeReal(realRoot: string, labels = readAuditLabels()): Judged[] {
  return labels.real.map((r) => {
    let text = fs.readFileSync(path.join(realRoot, r.path), 'utf8')
    // a session's messages are JSON strings: their lines are counted with the escapes undone
    if (r.path.endsWith('.jsonl')) text = text.replace(/\\n/g, '\n').replace(/\\"/g, '"')
    const line = text.split('\n')[r.line - 1]!
    return { label: r.label, verdict: verdictOn(line, r.rule), what: `${r.path}:${r.line}` }
  })
}
