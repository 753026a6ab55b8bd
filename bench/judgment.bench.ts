/**
 * `npm run bench -- judgment`: precision and recall of curation's merge and consolidate groups on the labelled real
 * skills (bench/labels/curation-groups.json), per split (tuned on / held out), names shown and hidden, with the
 * content judge and without it (the plan before it). Skipped with a reason when ../shared/data/real is absent.
 */
import fs from 'node:fs'
import path from 'node:path'
import { evaluateCuration, readLabels, type EvalResult } from './curation-eval'

const REAL = path.resolve(__dirname, '..', '..', 'shared', 'data', 'real')

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`

async function main(): Promise<void> {
  process.stdout.write('\n## Curation judgment (labelled real skills)\n\n')
  if (!fs.existsSync(REAL)) {
    process.stdout.write(`skipped: ${REAL} is absent\n`)
    return
  }
  const labels = readLabels()
  const count = (l: string): number => labels.groups.filter((g) => g.label === l).length
  process.stdout.write(`Labels: ${count('same')} same-skill groups, ${count('different')} different, ${count('unclear')} unclear (left out). Goal: precision ≥ 90 %, recall ≥ 85 % on every split, names shown and hidden.\n\n`)
  process.stdout.write('| judge | names | split | merge right/wrong/unclear | consolidate right/wrong/unclear | precision | recall | plan time |\n|---|---|---|---|---|---|---|---|\n')
  const rows: EvalResult[] = []
  for (const judgeContent of [true, false]) {
    for (const hideNames of [false, true]) {
      const r = await evaluateCuration(REAL, { hideNames, judgeContent }, labels)
      rows.push(r)
      for (const s of r.splits) {
        const t = (x: { right: number; wrong: number; unclear: number }): string => `${x.right}/${x.wrong}/${x.unclear}`
        process.stdout.write(`| ${judgeContent ? 'content' : 'off (before)'} | ${hideNames ? 'hidden' : 'shown'} | ${s.split} | ${t(s.merge)} | ${t(s.consolidate)} | ${pct(s.precision)} | ${pct(s.recall)} (${s.found}/${s.sameGroups}) | ${(r.planMs / 1000).toFixed(2)} s |\n`)
      }
    }
  }
  const judged = rows.filter((r) => r.judgeContent)
  const met = judged.every((r) => r.splits.every((s) => s.precision >= 0.9 && s.recall >= 0.85))
  process.stdout.write(`\nGoal ${met ? 'met' : 'NOT met'} with the content judge.\n`)
  for (const r of judged) {
    for (const s of r.splits) {
      for (const g of s.wrongGroups) process.stdout.write(`- wrong (${s.split}, names ${r.hideNames ? 'hidden' : 'shown'}): ${g.join(' + ')}\n`)
      for (const g of s.missed) process.stdout.write(`- missed (${s.split}, names ${r.hideNames ? 'hidden' : 'shown'}): ${g.join(' + ')}\n`)
    }
  }
}

void main()
