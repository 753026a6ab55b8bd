/**
 * The similarity join's two kernels on the curation corpus's index as curate builds it: JavaScript (`joinRows`, an
 * index in plain shared memory) against WebAssembly (`join-kernel.wat`, the same index built in a JoinArena, as
 * curate builds it for a library of 2,000 skills or more). The product's own path, `allPairsAsync` with two worker
 * threads, alternating runs; the pairs must be the same to the last bit. `JOIN_WASM_BENCH_SIZE=3000` picks another
 * size.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { similarityParts } from '../src/main/curate/proposals'
import { openLibrary } from '../src/main/store/library'
import { allPairsAsync, type SimilarPairs } from '../src/main/text/all-pairs'
import { chooseFrequentDf } from '../src/main/text/frequent-cut'
import { JoinArena } from '../src/main/text/join-arena'
import { buildTfIdfIndexAsync } from '../src/main/text/tfidf'
import { writeCorpusLibrary } from './libraries'

const SIZE = Number(process.env.JOIN_WASM_BENCH_SIZE ?? 20_000)
const RUNS = 4
const THRESHOLD = 0.5 - 1e-9
const log = (m: string): void => void process.stderr.write(`[join-wasm bench] ${m}\n`)
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

function same(a: SimilarPairs, b: SimilarPairs): boolean {
  if (a.count !== b.count) return false
  for (let k = 0; k < a.count; k++) if (a.a[k] !== b.a[k] || a.b[k] !== b.b[k] || a.score[k] !== b.score[k]) return false
  return true
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-join-wasm-'))
  try {
    const lib = path.join(tmp, 'corpus')
    log(`writing the ${SIZE.toLocaleString('en')}-skill corpus library…`)
    writeCorpusLibrary(lib, SIZE)
    const docs = (await (await openLibrary(lib)).list({ includeLegacy: false })).skills.map(similarityParts)
    const arena = JoinArena.create()
    if (!arena) throw new Error('no shared WebAssembly memory in this Node')
    const indexes = {
      javascript: await buildTfIdfIndexAsync(docs, { boilerplate: {}, termOrder: 'df' }),
      webassembly: await buildTfIdfIndexAsync(docs, { boilerplate: {}, termOrder: 'df', arena })
    }
    const frequentDf = chooseFrequentDf(indexes.javascript, THRESHOLD)
    const times: Record<keyof typeof indexes, number[]> = { javascript: [], webassembly: [] }
    const results: Partial<Record<keyof typeof indexes, SimilarPairs>> = {}
    let agree = true
    for (let r = 0; r < RUNS; r++) {
      for (const kind of ['javascript', 'webassembly'] as const) {
        log(`${kind} kernel (${r + 1}/${RUNS})…`)
        const started = performance.now()
        const pairs = await allPairsAsync(indexes[kind], THRESHOLD, { frequentDf, workers: 2 })
        times[kind].push(performance.now() - started)
        agree &&= pairs.kernel === kind
        results[kind] = pairs
      }
    }
    const exact = same(results.javascript!, results.webassembly!)
    const row = (label: string, xs: number[]): string => `| ${label} | ${secs(median(xs))} · min ${secs(Math.min(...xs))} |`
    process.stdout.write(
      [
        `### The join's kernels (${SIZE.toLocaleString('en')} skills, threshold 0.5, cut-off ${frequentDf}; ${results.javascript!.count.toLocaleString('en')} pairs)`,
        '',
        `\`allPairsAsync\` with two worker threads, ${RUNS} alternating runs each (the join's preparation included, its cut-off chosen once beforehand). Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}.`,
        '',
        '| kernel | time |',
        '|---|---|',
        row('JavaScript (`joinRows`; the index in plain shared memory)', times.javascript),
        row('WebAssembly (`join-kernel.wat`; the index built in a JoinArena, as curate builds it)', times.webassembly),
        '',
        `- Each run used the kernel its index calls for: ${agree ? 'yes' : 'NO'}. The same pairs with the same scores to the last bit: ${exact ? 'yes' : 'NO'}.`,
        `- WebAssembly against JavaScript: ${(median(times.javascript) / median(times.webassembly)).toFixed(2)}× (medians).`,
        ''
      ].join('\n')
    )
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exit(1)
})
