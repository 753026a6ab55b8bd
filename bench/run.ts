/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after another, and prints their reports.
 *
 * Each bench prints a Markdown section (figures side by side with the goal / the reference) to stdout.
 * `npm run bench -- store scan` runs only the benches whose file names contain those words; the arguments from the
 * first `--option` on go to each bench run (`npm run bench -- before-after --ref HEAD~3`). The benches in NAMED_ONLY
 * run only when named.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** before-after installs and builds another commit's tree: not part of a run of every bench. */
const NAMED_ONLY = ['before-after.bench.ts']

const dir = __dirname
const args = process.argv.slice(2)
const firstOption = args.findIndex((a) => a.startsWith('--'))
const filters = firstOption < 0 ? args : args.slice(0, firstOption)
const benchArgs = firstOption < 0 ? [] : args.slice(firstOption)
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => (filters.length === 0 ? !NAMED_ONLY.includes(f) : filters.some((w) => f.includes(w))))
  .sort()

let failed = 0
for (const file of files) {
  process.stdout.write(`\n<!-- ${file} -->\n`)
  const started = Date.now()
  const res = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(dir, file), ...benchArgs], {
    stdio: 'inherit',
    cwd: path.resolve(dir, '..')
  })
  if (res.status !== 0) {
    failed++
    process.stdout.write(`\n**${file} failed (exit ${res.status})**\n`)
  }
  process.stderr.write(`[bench] ${file} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
}
process.exitCode = failed ? 1 : 0
