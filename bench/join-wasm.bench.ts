/**
 * What the similarity join's kernel would cost compiled from WebAssembly (bench/join-kernel.wat) instead of
 * JavaScript (the product's `joinRows`), on the 20,000-skill curation corpus's index as curate builds it: the same
 * arrays in one shared WebAssembly memory, the same harness (two worker threads claiming 32-row chunks from a shared
 * counter, each started fresh as in a curate run), only the kernel differs. The product does not use the WebAssembly
 * kernel (docs/BENCH.md, "Where the join's time goes"). `JOIN_WASM_BENCH_SIZE=3000` picks another size.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import wabtInit from 'wabt'
import { similarityParts } from '../src/main/curate/proposals'
import { openLibrary } from '../src/main/store/library'
import { chooseFrequentDf, joinRows, pairSink, prepareJoin, type JoinData } from '../src/main/text/all-pairs'
import { buildTfIdfIndexAsync } from '../src/main/text/tfidf'
import { writeCorpusLibrary } from './libraries'

const SIZE = Number(process.env.JOIN_WASM_BENCH_SIZE ?? 20_000)
const RUNS = 4
const THRESHOLD = 0.5 - 1e-9
const log = (m: string): void => void process.stderr.write(`[join-wasm bench] ${m}\n`)

type ArrayName = 'rowPtr' | 'split' | 'colIdx' | 'values' | 'rarePos' | 'postPtr' | 'postDoc' | 'postVal' | 'freqNorm'
const ARRAYS: ArrayName[] = ['rowPtr', 'split', 'colIdx', 'values', 'rarePos', 'postPtr', 'postDoc', 'postVal', 'freqNorm']

/** The join's arrays copied into one shared WebAssembly memory, with room for two threads' accumulators. */
function intoMemory(d: JoinData): { memory: WebAssembly.Memory; offsets: Record<string, number> } {
  const offsets: Record<string, number> = {}
  let bytes = 0
  const reserve = (name: string, size: number): void => {
    offsets[name] = bytes
    bytes += Math.ceil(size / 8) * 8
  }
  for (const name of ARRAYS) reserve(name, d[name].byteLength)
  for (const t of [0, 1]) {
    reserve(`acc${t}`, d.n * 8)
    reserve(`dense${t}`, d.vocabSize * 8)
  }
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536), maximum: 65536, shared: true })
  const all = new Uint8Array(memory.buffer)
  for (const name of ARRAYS) all.set(new Uint8Array(d[name].buffer, d[name].byteOffset, d[name].byteLength), offsets[name]!)
  return { memory, offsets }
}

/** The join data as views of the memory (what the JavaScript kernel reads in the same harness). */
function viewsOf(d: JoinData, memory: WebAssembly.Memory, offsets: Record<string, number>): JoinData {
  const u32 = (name: ArrayName): Uint32Array => new Uint32Array(memory.buffer, offsets[name], d[name].length)
  const f64 = (name: ArrayName): Float64Array => new Float64Array(memory.buffer, offsets[name], d[name].length)
  return { ...d, rowPtr: u32('rowPtr'), split: u32('split'), colIdx: u32('colIdx'), values: f64('values'), rarePos: u32('rarePos'), postPtr: u32('postPtr'), postDoc: u32('postDoc'), postVal: f64('postVal'), freqNorm: f64('freqNorm') }
}

// One worker program for both kernels: chunks of 32 rows from a shared counter; the pairs counted, their scores summed.
const WORKER = `
const { parentPort, workerData: w } = require('node:worker_threads')
const counter = new Int32Array(w.counter)
const n = w.n
let count = 0
let sum = 0
if (w.kind === 'wasm') {
  const kernel = new WebAssembly.Instance(w.module, { env: { memory: w.memory } }).exports
  const o = w.offsets
  for (;;) {
    const lo = Atomics.add(counter, 0, 32)
    if (lo >= n) break
    count += kernel.join(lo, Math.min(n, lo + 32), n, w.threshold, w.need, o.rowPtr, o.split, o.colIdx, o.values, o.rarePos, o.postPtr, o.postDoc, o.postVal, o.freqNorm, o['acc' + w.thread], o['dense' + w.thread])
  }
  sum = kernel.sum.value
} else {
  const joinRows = ${joinRows.toString()}
  const acc = new Float64Array(n)
  const dense = new Float64Array(w.data.vocabSize)
  const cand = new Uint32Array(n)
  const out = { a: new Uint32Array(1024), b: new Uint32Array(1024), s: new Float64Array(1024), n: 0 }
  for (;;) {
    const lo = Atomics.add(counter, 0, 32)
    if (lo >= n) break
    joinRows(w.data, lo, Math.min(n, lo + 32), acc, dense, cand, out)
  }
  count = out.n
  for (let k = 0; k < out.n; k++) sum += out.s[k]
}
parentPort.postMessage({ count, sum })
`

async function runTwoThreads(kind: 'wasm' | 'js', shared: Record<string, unknown>, n: number): Promise<{ ms: number; count: number; sum: number }> {
  const counter = new SharedArrayBuffer(4)
  const started = performance.now()
  const results = await Promise.all(
    [0, 1].map(
      (thread) =>
        new Promise<{ count: number; sum: number }>((resolve, reject) => {
          const worker = new Worker(WORKER, { eval: true, workerData: { ...shared, kind, thread, counter, n } })
          worker.once('message', resolve)
          worker.once('error', reject)
        })
    )
  )
  const ms = performance.now() - started
  return { ms, count: results.reduce((c, r) => c + r.count, 0), sum: results.reduce((s, r) => s + r.sum, 0) }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-join-wasm-'))
  try {
    const lib = path.join(tmp, 'corpus')
    log(`writing the ${SIZE.toLocaleString('en')}-skill corpus library…`)
    writeCorpusLibrary(lib, SIZE)
    const skills = (await (await openLibrary(lib)).list({ includeLegacy: false })).skills
    const index = await buildTfIdfIndexAsync(skills.map(similarityParts), { boilerplate: {}, termOrder: 'df' })
    const cut = chooseFrequentDf(index, THRESHOLD)
    const prepared = prepareJoin(index, THRESHOLD, cut)
    const d = prepared.data
    const { memory, offsets } = intoMemory(d)
    const wabt = await wabtInit()
    const wat = wabt.parseWat('join-kernel.wat', fs.readFileSync(path.join(__dirname, 'join-kernel.wat'), 'utf8'), { threads: true, bulk_memory: true })
    // Copied into a plain ArrayBuffer: compile() takes no view of shared memory.
    const module = await WebAssembly.compile(Uint8Array.from(wat.toBinary({}).buffer))
    wat.destroy()
    const views = viewsOf(d, memory, offsets)
    const need = THRESHOLD - d.boundEps

    // Exactness first, on one thread over the first rows: the same pairs, the same scores to the last bit.
    const rows = Math.min(d.n, 2000)
    const out = pairSink()
    joinRows(views, 0, rows, new Float64Array(d.n), new Float64Array(d.vocabSize), new Uint32Array(d.n), out)
    let jsSum = 0
    for (let k = 0; k < out.n; k++) jsSum += out.s[k]!
    const kernel = new WebAssembly.Instance(module, { env: { memory } }).exports as { join: (...args: number[]) => number; sum: WebAssembly.Global }
    const wasmCount = kernel.join(0, rows, d.n, THRESHOLD, need, offsets.rowPtr!, offsets.split!, offsets.colIdx!, offsets.values!, offsets.rarePos!, offsets.postPtr!, offsets.postDoc!, offsets.postVal!, offsets.freqNorm!, offsets.acc0!, offsets.dense0!)
    const exact = wasmCount === out.n && kernel.sum.value === jsSum

    const shared = { memory, module, offsets, data: views, threshold: THRESHOLD, need }
    const times: Record<'wasm' | 'js', number[]> = { wasm: [], js: [] }
    let agree = true
    let pairs = 0
    for (let r = 0; r < RUNS; r++) {
      for (const kind of ['js', 'wasm'] as const) {
        log(`${kind} kernel, two threads (${r + 1}/${RUNS})…`)
        const res = await runTwoThreads(kind, shared, d.n)
        times[kind].push(res.ms)
        if (pairs === 0) pairs = res.count
        agree &&= res.count === pairs
      }
    }
    prepared.restore()
    const row = (label: string, xs: number[]): string => `| ${label} | ${secs(median(xs))} · min ${secs(Math.min(...xs))} |`
    process.stdout.write(
      [
        `### The join's kernel: JavaScript against WebAssembly (${SIZE.toLocaleString('en')} skills, threshold 0.5, cut-off ${cut}; ${pairs.toLocaleString('en')} pairs)`,
        '',
        `Two worker threads started fresh per run, 32-row chunks from a shared counter, the index's arrays in one shared WebAssembly memory for both; ${RUNS} alternating runs each. Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}.`,
        '',
        '| kernel | time |',
        '|---|---|',
        row("JavaScript (the product's `joinRows`)", times.js),
        row('WebAssembly (`bench/join-kernel.wat`, not in the product)', times.wasm),
        '',
        `- The same pair count in every run: ${agree ? 'yes' : 'NO'}. On one thread over the first ${rows.toLocaleString('en')} rows, the same pairs and the same score sum to the last bit: ${exact ? 'yes' : `NO (${wasmCount} against ${out.n} pairs, sum ${kernel.sum.value} against ${jsSum})`}.`,
        `- WebAssembly against JavaScript: ${(median(times.js) / median(times.wasm)).toFixed(2)}× (medians).`,
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
