/**
 * `npm run bench -- audit-judgment`: precision and recall of the audit's lowering of a high finding to medium for
 * a sentence that warns about the pattern (bench/labels/audit-cautionary.json), per split — `tune` (looked at while
 * the rule was written), `check` (labelled before the rule ran on it) — and on the real lines, read in place from
 * ../shared/data/real (skipped with a reason when absent). A step lowered is what would slip past install's hold.
 */
import fs from 'node:fs'
import path from 'node:path'
import { judgeReal, judgeWritten, readAuditLabels, score, type Judged } from './audit-eval'

const REAL = path.resolve(__dirname, '..', '..', 'shared', 'data', 'real')
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`

function row(name: string, judged: readonly Judged[]): string {
  const s = score(judged)
  const steps = judged.filter((j) => j.label === 'step')
  const warnings = judged.length - steps.length
  const slipped = steps.filter((j) => j.verdict !== 'high').length
  return `| ${name} | ${steps.length} | ${warnings} | ${pct(s.precision)} | ${pct(s.recall)} | ${slipped} |\n`
}

function main(): void {
  process.stdout.write('\n## Audit judgment: warnings told apart from steps (labelled sentences)\n\n')
  const labels = readAuditLabels()
  process.stdout.write('Goal: precision 100 % (no step lowered: it would get past install) on every split, recall ≥ 80 % held out.\n\n')
  process.stdout.write('| set | steps | warnings | precision | recall | steps not high |\n|---|---|---|---|---|---|\n')
  const all: Judged[][] = [judgeWritten('tune', labels), judgeWritten('check', labels)]
  process.stdout.write(row('tune (written, tuned on)', all[0]!))
  process.stdout.write(row('check (written, held out)', all[1]!))
  if (fs.existsSync(REAL)) {
    all.push(judgeReal(REAL, labels))
    process.stdout.write(row('real lines (../shared/data/real)', all[2]!))
  } else process.stdout.write(`\nreal lines skipped: ${REAL} is absent\n`)
  for (const judged of all) for (const w of score(judged).wrong) process.stdout.write(`- ${w}\n`)
}

main()
