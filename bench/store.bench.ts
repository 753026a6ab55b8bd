/**
 * Store and query_skill on a generated library of 10,000 skills (mixed English / Chinese; 9,500 AGIAgent files
 * plus 500 SKILL.md folders, some in dot-folders). Prints a Markdown section: figure, goal.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openLibrary } from '../src/main/store/library'
import { createSkillTools } from '../src/main/tools/skill-tools'
import { rng } from './cluster-corpus'
import { EN, wordPicker, writeMixedLibrary, ZH } from './libraries'

const N_AGI = 9_500
const N_MD = 500
const words = wordPicker(rng(7))

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 0)} ms`

/** Wall time and this process's CPU time of one async step (CPU time is what a loaded machine does not inflate). */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c = process.cpuUsage()
  const t = performance.now()
  const value = await fn()
  const wall = performance.now() - t
  const d = process.cpuUsage(c)
  return { value, wall, cpu: (d.user + d.system) / 1000 }
}

const both = (x: { wall: number; cpu: number }): string => `${ms(x.wall)} (cpu ${ms(x.cpu)})`

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-store-'))
  try {
    writeMixedLibrary(dir, N_AGI + N_MD)
    const queries = [
      ...Array.from({ length: 100 }, () => words(EN, 4, ' ')),
      ...Array.from({ length: 100 }, () => words(ZH, 3, '')),
      '帮我写一个Python计算器，要有除零保护',
      'retry an http request with a timeout'
    ]

    // The generator's garbage is not the store's: collect it first (bench/run.ts passes --expose-gc), so the
    // first open is measured as in a fresh process.
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const open = await timed(() => openLibrary(dir))
    const lib = open.value
    const relist = await timed(() => lib.list())
    const list = relist.value
    gc?.()
    const secondOpen = await timed(() => openLibrary(dir))

    const tools = createSkillTools(lib, { snapshotMaxAgeMs: 60_000 })
    const first = await timed(() => tools.query_skill('warm up: build the index', { touch: false }))

    const noTouch: number[] = []
    const noTouchAll = await timed(async () => {
      for (const q of queries) {
        const s = performance.now()
        await tools.query_skill(q, { touch: false })
        noTouch.push(performance.now() - s)
      }
    })
    const touch: number[] = []
    const touchAll = await timed(async () => {
      for (const q of queries.slice(0, 60)) {
        const s = performance.now()
        await tools.query_skill(q)
        touch.push(performance.now() - s)
      }
    })
    // create() must not depend on the library's size: 200 skills into the 10k library, 8 at once (as reflection does)
    const CREATES = 200
    let nextCreate = 0
    const creates = await timed(async () => {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (nextCreate < CREATES) {
            const i = nextCreate++
            await lib.create({ title: `bench create ${i}`, body: (i % 2 === 0 ? words(ZH, 40, '') : words(EN, 40, ' ')) + '\n', task_directories: [`output_bench_${i}`] })
          }
        })
      )
    })
    const load = os.loadavg()[0]!.toFixed(1)

    const lines = [
      '## Skill store and query_skill (10,000 generated skills)',
      '',
      `${list.skills.length} skills (${N_AGI} AGIAgent files + ${N_MD} SKILL.md folders), ${list.errors.length} errors; ` +
        `${os.cpus().length} CPU(s), load average ${load} while measuring (wall times grow with load; CPU times much less).`,
      '',
      '| measure | result | goal |',
      '|---|---|---|',
      `| openLibrary: find, read, parse all (first time in process, cold JIT) | ${both(open)} | < 1 s |`,
      `| list() again (stat only, files unchanged) | ${both(relist)} | — |`,
      `| a second openLibrary on the same folder (read + parse all, warm JIT) | ${both(secondOpen)} | < 1 s |`,
      `| first query (builds the TF-IDF index of 10k skills) | ${both(first)} | — |`,
      `| query_skill --no-touch p50 / p95 (${noTouch.length} queries, EN + ZH) | ${ms(percentile(noTouch, 50))} / ${ms(percentile(noTouch, 95))} (cpu ${ms(noTouchAll.cpu / noTouch.length)} per query) | p50 < 5 ms |`,
      `| query_skill with touch (3 atomic writes + fsync each) p50 / p95 (${touch.length} queries) | ${ms(percentile(touch, 50))} / ${ms(percentile(touch, 95))} (cpu ${ms(touchAll.cpu / touch.length)} per query) | — |`,
      `| create() into the 10k library, 8 at once (${CREATES} skills; fsync per file, folder fsyncs shared) | ${(CREATES / (creates.wall / 1000)).toFixed(0)} skills/s (cpu ${ms(creates.cpu / CREATES)} per skill) | independent of library size |`,
      ''
    ]
    process.stdout.write(lines.join('\n') + '\n')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
