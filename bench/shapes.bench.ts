/**
 * Speed on other data (issue 40, point 7): the whole-command goals of `curate` and `query` on libraries of other
 * shapes than the bench's own corpus (bench/cluster-corpus.ts `OTHER_SHAPES`), cold (no cache folder, no plan in the
 * library) and warm, beside scikit-learn TF-IDF + cosine + DBSCAN as a whole process (bench/cluster_sklearn.py).
 *
 * `npm run bench -- shapes` runs it alone. Environment (all optional):
 * - SHAPES_BENCH=zipf,bilingual      the shapes (names of OTHER_SHAPES, or `corpus` for the bench's own);
 * - SHAPES_BENCH_SIZES=3000,20000    the curate sizes (0 or empty: no curate rows);
 * - SHAPES_BENCH_QUERY_SIZE=10000    the query library's size (0: no query rows);
 * - SHAPES_BENCH_RUNS=3              cold runs per row; SHAPES_BENCH_SKLEARN_RUNS (default the same, 0: none);
 * - SHAPES_BENCH_NO_BUILD=1          skip `npm run build` (the build must then be current).
 * Figures are reported, never asserted.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BENCH_SHAPE, OTHER_SHAPES, type CorpusShape } from './cluster-corpus'
import { queryOf, writeCorpusLibrary } from './libraries'
import { buildStaleReason, mb, runBenchMain, median, medMin, ms, runOnce, timeRuns, timeWithRss, type Run } from './measure'

const ROOT = path.resolve(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const PYTHON = '/usr/bin/python3'
const list = (v: string | undefined, fallback: string): string[] => (v ?? fallback).split(',').map((s) => s.trim()).filter(Boolean)
const SHAPES = list(process.env.SHAPES_BENCH, 'zipf,bilingual')
const SIZES = list(process.env.SHAPES_BENCH_SIZES, '3000,20000').map(Number).filter((n) => n > 0)
const QUERY_SIZE = Number(process.env.SHAPES_BENCH_QUERY_SIZE ?? 10_000)
const RUNS = Math.max(1, Number(process.env.SHAPES_BENCH_RUNS ?? 3) || 3)
const SKLEARN_RUNS = Math.min(RUNS, Number(process.env.SHAPES_BENCH_SKLEARN_RUNS ?? RUNS))

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-shapes-bench-'))
const CACHE = path.join(tmp, 'cache')
const ENV: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: CACHE, SKILLBENCH_CONFIG_DIR: path.join(tmp, 'config') }
const OPTS = { cwd: ROOT, env: ENV }
const sb = (...args: string[]): [string, string[]] => [process.execPath, [BIN, ...args]]

interface Row {
  command: string
  ours: string
  reference: string
  goal: string
}
const rows: Row[] = []

function log(text: string): void {
  process.stderr.write(`[shapes bench] ${text}\n`)
}

function shapeOf(name: string): CorpusShape {
  if (name === 'corpus') return BENCH_SHAPE
  const s = OTHER_SHAPES[name]
  if (!s) throw new Error(`unknown shape "${name}" (known: corpus, ${Object.keys(OTHER_SHAPES).join(', ')})`)
  return s.shape
}

/** A new library of `n` skills in `shape` (written once per shape and size). */
function library(name: string, n: number): string {
  const dir = path.join(tmp, `${name}-${n}`)
  if (!fs.existsSync(dir)) {
    log(`writing the ${name} library of ${n.toLocaleString('en')} skills…`)
    writeCorpusLibrary(dir, n, 42, shapeOf(name))
  }
  return dir
}

/** Cold as a first run on a new machine finds it: no cache folder, no plan or pairs of an earlier run in the library. */
function makeCold(lib: string): void {
  fs.rmSync(CACHE, { recursive: true, force: true })
  fs.rmSync(path.join(lib, '.skillbench'), { recursive: true, force: true })
}

type Timed = Run & { rssKb: number; cpuMs: number }

/** `1.81 s, 1.79 s` with CPU: the runs' wall times, their median CPU (user + sys) and peak RSS. */
function runsText(runs: readonly Timed[]): string {
  return `${runs.map((r) => ms(r.ms)).join(', ')} (CPU ${ms(median(runs.map((r) => r.cpuMs)))}), peak ${mb(Math.max(...runs.map((r) => r.rssKb)))}`
}

/** ours against one scikit-learn reference: the ratio of medians (wall and CPU) and each pair's wall ratio. */
function ratioText(ours: readonly Timed[], theirs: readonly Timed[]): string {
  const wall = median(theirs.map((r) => r.ms)) / median(ours.map((r) => r.ms))
  const cpu = median(theirs.map((r) => r.cpuMs)) / median(ours.map((r) => r.cpuMs))
  const pairs = theirs.map((r, i) => `${(r.ms / ours[i]!.ms).toFixed(1)}×`).join(', ')
  return `ours **${wall.toFixed(1)}×** (pairs ${pairs}; CPU ${cpu.toFixed(1)}×)`
}

function curateRow(name: string, n: number, hasSklearn: boolean): void {
  const lib = library(name, n)
  // A shape with Chinese text is also compared with a reference that splits Chinese as the product does (characters
  // and neighbouring pairs: cluster_sklearn.py --cjk-pairs), where the goal is a ratio; the default reference takes
  // each run of Chinese characters as one token (less work than ours), and is shown beside it.
  const chinese = (shapeOf(name).chineseShare ?? 0) > 0 && n <= 3000
  const references: Array<{ label: string; flags: string[]; runs: Timed[] }> = [
    ...(chinese ? [{ label: 'scikit-learn, Chinese as characters and pairs (as ours)', flags: ['--cjk-pairs'], runs: [] }] : []),
    { label: chinese ? 'scikit-learn, default tokens (a Chinese run = one token)' : 'scikit-learn', flags: [], runs: [] }
  ]
  const ours: Timed[] = []
  const phases: string[] = []
  for (let i = 0; i < RUNS; i++) {
    log(`${name}: curate at ${n}, cold (${i + 1}/${RUNS})…`)
    makeCold(lib)
    const run = timeWithRss(tmp, ...sb('curate', '--library', lib, '--json'), { ...OPTS, env: { ...ENV, SKILLBENCH_CURATE_TRACE: '1' } })
    ours.push(run)
    phases.push(phaseTimes(run.stderr))
    if (hasSklearn && i < SKLEARN_RUNS) {
      for (const ref of references) {
        log(`${name}: ${ref.label} at ${n} (${i + 1}/${SKLEARN_RUNS})…`)
        ref.runs.push(timeWithRss(tmp, PYTHON, [path.join(__dirname, 'cluster_sklearn.py'), ...ref.flags, lib, path.join(tmp, 'labels.txt')], OPTS))
      }
    }
  }
  const proposals = (JSON.parse(ours[0]!.stdout) as { proposals: unknown[] }).proposals.length
  const reference =
    references[0]!.runs.length > 0
      ? references.map((ref) => `${ref.label}: ${runsText(ref.runs)} → ${ratioText(ours, ref.runs)}`).join('; ')
      : 'scikit-learn: skipped (python3-sklearn or python3-yaml missing, or SHAPES_BENCH_SKLEARN_RUNS=0)'
  rows.push({
    command: `${name}: \`skillbench curate\` cold, ${n.toLocaleString('en')} skills (${proposals} proposals)`,
    ours: `${medMin(ours.map((r) => r.ms))} (CPU ${ms(median(ours.map((r) => r.cpuMs)))}), peak ${mb(Math.max(...ours.map((r) => r.rssKb)))}; phases (ms since start, median run): ${phases[medianIndex(ours.map((r) => r.ms))]}`,
    reference,
    goal: n >= 20_000 ? '≤ 5 s, < 500 MB' : n <= 3000 ? '≥ 3× scikit-learn' : '—'
  })
}

/** Index of the run with the median time (the lower middle one for an even count). */
function medianIndex(xs: readonly number[]): number {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0])
  return order[Math.floor((order.length - 1) / 2)]![1]
}

/** When a cold curate reached its phases (SKILLBENCH_CURATE_TRACE lines): read, index and join, plan, exit. */
function phaseTimes(stderr: string): string {
  const at = (pattern: RegExp): string => {
    const line = stderr.split('\n').find((l) => pattern.test(l))
    return /^\[\+(\d+) ms\]/.exec(line ?? '')?.[1] ?? '?'
  }
  return `read ${at(/reading skills (\d+)\/\1\b/)}, compared ${at(/comparing skills (\d+)\/\1\b/)}, plan saved ${at(/plan built and saved/)}, stems saved ${at(/stems saved/)}`
}

function sleepMs(t: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, t)
}

function queryRows(name: string, n: number): void {
  const lib = library(name, n)
  const query = queryOf(lib, (shapeOf(name).chineseShare ?? 0) > 0)
  const args = (...extra: string[]): [string, string[]] => sb('query', query, '--library', lib, '--json', '--no-touch', ...extra)
  log(`${name}: query at ${n}, cold…`)
  // The first query of a library: nothing saved, the index built from every file (in process: no daemon of an
  // earlier run can answer; a first query then starts the daemon in the background, after its answer).
  const cold = timeRuns(...args('--no-server'), RUNS, 0, { ...OPTS, before: () => makeCold(lib) })
  log(`${name}: query at ${n}, warm…`)
  runOnce(...args(), OPTS)
  for (let i = 0; i < 300 && !runOnce(...sb('search-server', '--status', '--library', lib), OPTS).stdout.startsWith('a search daemon answers'); i++) sleepMs(100)
  const warm = timeRuns(...args(), 10, 1, OPTS)
  const warmInProcess = timeRuns(...args('--no-server'), 5, 1, OPTS)
  runOnce(...sb('search-server', '--stop', '--library', lib), OPTS)
  const hits = (JSON.parse(runOnce(...args('--no-server'), OPTS).stdout) as { skills: unknown[] }).skills.length
  const label = `${n.toLocaleString('en')} skills, query "${query}" (${hits} hits)`
  rows.push(
    { command: `${name}: \`skillbench query\` cold (no cache folder; in process), ${label}`, ours: medMin(cold), reference: '', goal: '≤ 2 s' },
    { command: `${name}: \`skillbench query\` warm (the library's search daemon answers), ${label}`, ours: medMin(warm), reference: `in process (--no-server): ${medMin(warmInProcess)}`, goal: '≤ 150 ms' }
  )
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0] ?? 0
  if (process.env.SHAPES_BENCH_NO_BUILD !== '1') {
    log('building (npm run build)…')
    const b = runOnce('npm', ['run', 'build'], { ...OPTS, timeout: 600_000 })
    if (b.code !== 0) throw new Error(`npm run build failed: ${b.stderr.trim().split('\n').slice(-3).join(' ')}`)
  }
  const stale = buildStaleReason(ROOT)
  if (stale) throw new Error(`the CLI would run from source (${stale}): run without SHAPES_BENCH_NO_BUILD=1, or npm run build first`)
  const hasSklearn = SKLEARN_RUNS > 0 && spawnSync(PYTHON, ['-c', 'import sklearn, yaml'], { stdio: 'ignore' }).status === 0
  for (const name of SHAPES) {
    shapeOf(name)
    for (const n of SIZES) {
      try {
        curateRow(name, n, hasSklearn)
      } catch (err) {
        rows.push({ command: `${name}: curate, ${n} skills`, ours: `failed: ${(err as Error).message.split('\n')[0]}`, reference: '', goal: '' })
      }
    }
    if (QUERY_SIZE > 0) {
      try {
        queryRows(name, QUERY_SIZE)
      } catch (err) {
        rows.push({ command: `${name}: query, ${QUERY_SIZE} skills`, ours: `failed: ${(err as Error).message.split('\n')[0]}`, reference: '', goal: '' })
      }
    }
    for (const dir of fs.readdirSync(tmp)) if (dir.startsWith(`${name}-`)) fs.rmSync(path.join(tmp, dir), { recursive: true, force: true })
  }
  const staleAfter = buildStaleReason(ROOT)
  const loadEnd = os.loadavg()[0] ?? 0
  const about = SHAPES.map((s) => `**${s}**: ${s === 'corpus' ? "the commands bench's own corpus" : OTHER_SHAPES[s]!.about}`).join('; ')
  const out = [
    '## Speed on other data shapes (same run)',
    '',
    `${about}. Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadStart.toFixed(1)} at the start and ${loadEnd.toFixed(1)} at the end. ` +
      `Cold: no cache folder and no plan in the library. Median · min of ${RUNS} runs; peak RSS from /usr/bin/time.`,
    ...(staleAfter ? ['', `**Not to be trusted: ${staleAfter} during the run (the CLI ran from source).**`] : []),
    '',
    '| command | Skillbench | reference, same run | goal |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.command} | ${r.ours} | ${r.reference} | ${r.goal} |`),
    ''
  ]
  process.stdout.write(out.join('\n') + '\n')
}

runBenchMain(main, tmp)
