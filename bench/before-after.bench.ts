/**
 * Before and after in one run (issue 40: "the behaviour is unchanged … the bench figures hold side by side"): the
 * same whole commands of an earlier commit's build ("before", by default f9c7dd0^, main as issue 40 found it) and of
 * this tree's build ("after"), alternated pair by pair (before-after, then after-before, …) on the same generated
 * data, each timed as a whole process: wall time, CPU time user + system (holds better on a loaded machine), peak RSS.
 * The two builds' `--json` answers are compared too: the same proposals, hits, skills and tasks.
 *
 * `npm run bench -- before-after [--ref COMMIT] [--after COMMIT]` runs it (only when named: it installs and builds
 * another tree). `--after` times another commit's build instead of this tree's (to find which commit changed an
 * answer, e.g. `--ref X^ --after X`). Those checkouts are kept in the system temp dir (bench/commit-build.ts) and
 * reused. Environment:
 * - BEFORE_AFTER_ROWS=help,list,query,curate,scan   which rows (all by default);
 * - BEFORE_AFTER_PAIRS=3                            pairs of the slow rows (the fast rows take 3× as many);
 * - BEFORE_AFTER_CURATE_SIZES=3000                  curate library sizes (e.g. 3000,20000);
 * - BEFORE_AFTER_QUERY_SIZE=10000                   the query and list libraries' size;
 * - BEFORE_AFTER_SMALL=1                            every library 50× smaller (to try the harness);
 * - BEFORE_AFTER_NO_BUILD=1                         skip `npm run build` here (the build must then be current).
 * Each side has its own copy of every library and its own cache and settings folders, so neither build's saved
 * indexes, plans or search daemons serve the other. A flag a row uses that either build's `--help` does not show
 * skips that row with the reason. Figures are reported, never asserted.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { writeDataRoot } from './agiagent-logs'
import { prepareCommitBuild } from './commit-build'
import { OTHER_SHAPES } from './cluster-corpus'
import { queryOf, writeCorpusLibrary, writeMixedLibrary } from './libraries'
import { buildStaleReason, mb, runBenchMain, median, medMin, ms, runOnce, timeWithRss } from './measure'
import { compareCuratePlans, compareItems, compareQueryHits } from './output-agreement'

const ROOT = path.resolve(__dirname, '..')
const DEFAULT_REF = 'f9c7dd0^'
const argAfter = (flag: string): string | undefined => {
  const i = process.argv.indexOf(flag)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const REF = argAfter('--ref') ?? process.env.BEFORE_AFTER_REF ?? DEFAULT_REF
/** Another commit as the after side; this tree when not given. */
const AFTER_REF = argAfter('--after') ?? process.env.BEFORE_AFTER_AFTER
const list = (v: string | undefined, fallback: string): string[] => (v ?? fallback).split(',').map((s) => s.trim()).filter(Boolean)
const ROWS = new Set(list(process.env.BEFORE_AFTER_ROWS, 'help,list,query,curate,scan'))
const PAIRS = Math.max(1, Number(process.env.BEFORE_AFTER_PAIRS ?? 3) || 3)
const SMALL = process.env.BEFORE_AFTER_SMALL === '1'
const size = (n: number): number => (SMALL ? Math.max(4, Math.round(n / 50)) : n)
const CURATE_SIZES = list(process.env.BEFORE_AFTER_CURATE_SIZES, '3000').map(Number).filter((n) => n > 0).map(size)
const QUERY_SIZE = size(Number(process.env.BEFORE_AFTER_QUERY_SIZE ?? 10_000))
const SCAN_TASKS = size(400)
const SCAN_BYTES_PER_TASK = 256 * 1024

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-before-after-bench-'))
const DATA = path.join(tmp, 'data')

function log(text: string): void {
  process.stderr.write(`[before-after bench] ${text}\n`)
}

// ---------- the two builds ----------

interface Side {
  name: 'before' | 'after'
  /** The commit, for the table's head. */
  label: string
  bin: string
  home: string
  env: NodeJS.ProcessEnv
}

function side(name: Side['name'], label: string, checkout: string): Side {
  const home = path.join(tmp, name)
  fs.mkdirSync(home, { recursive: true })
  const env = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: path.join(home, 'cache'), SKILLBENCH_CONFIG_DIR: path.join(home, 'config') }
  return { name, label, bin: path.join(checkout, 'bin', 'skillbench.cjs'), home, env }
}

/** This side's copy of a generated library or data root (the same files, times kept). */
function copyOf(s: Side, data: string): string {
  const dir = path.join(s.home, path.basename(data))
  if (!fs.existsSync(dir)) fs.cpSync(data, dir, { recursive: true, preserveTimestamps: true })
  return dir
}

const cli = (s: Side, args: string[]): ReturnType<typeof runOnce> => runOnce(process.execPath, [s.bin, ...args], { cwd: s.home, env: s.env })

const helpOf = new Map<string, string>()
/** The flags of `args` (a command and its options) that this build's `COMMAND --help` does not show. */
function unknownFlags(s: Side, args: string[]): string[] {
  const command = args[0]!.startsWith('-') ? '' : args[0]!
  const key = `${s.name} ${command}`
  if (!helpOf.has(key)) helpOf.set(key, cli(s, command ? [command, '--help'] : ['--help']).stdout)
  const help = helpOf.get(key)!
  return args.filter((a) => a.startsWith('--') && a !== '--help' && !help.includes(a))
}

// ---------- generated data (written once, copied to each side) ----------

function data(name: string, write: (dir: string) => void): string {
  const dir = path.join(DATA, name)
  if (!fs.existsSync(dir)) {
    log(`writing ${name}…`)
    write(dir)
  }
  return dir
}
const mixed = (n: number): string => data(`mixed-${n}`, (dir) => writeMixedLibrary(dir, n))
const corpus = (shape: 'corpus' | 'zipf', n: number): string =>
  data(`${shape}-${n}`, (dir) => void (shape === 'corpus' ? writeCorpusLibrary(dir, n) : writeCorpusLibrary(dir, n, 42, OTHER_SHAPES.zipf!.shape)))
const dataRoot = (): string => data(`root-${SCAN_TASKS}`, (dir) => void writeDataRoot(dir, SCAN_TASKS, SCAN_BYTES_PER_TASK))

// ---------- rows ----------

interface Measured {
  ms: number
  cpuMs: number
  rssKb: number
  stdout: string
}

interface RowSpec {
  command: string
  goal: string
  /** The command's arguments for this side (its own copies of the data). */
  args: (s: Side) => string[]
  pairs: number
  /** Untimed runs per side before the pairs (warm rows). */
  warmup?: number
  /** Untimed, before each timed run (e.g. emptying the caches for a cold run). */
  prepare?: (s: Side) => void
  /** Untimed, once per side before the warm-up (e.g. starting the search daemon). */
  setUp?: (s: Side) => void
  tearDown?: (s: Side) => void
  /** The two builds' answers (stdout of each side's last timed run) compared in one line. */
  agree?: (before: string, after: string) => string
  /** What the CPU column leaves out, if anything. */
  cpuNote?: string
}

interface Row {
  command: string
  goal: string
  before?: Measured[]
  after?: Measured[]
  agreement: string
  note?: string
}
const rows: Row[] = []

function measure(s: Side, spec: RowSpec): Measured {
  spec.prepare?.(s)
  const r = timeWithRss(s.home, process.execPath, [s.bin, ...spec.args(s)], { cwd: s.home, env: s.env })
  return { ms: r.ms, cpuMs: r.cpuMs, rssKb: r.rssKb, stdout: r.stdout }
}

/** One row: each side's warm-up, then the pairs, the order flipped every pair so neither side always goes first. */
function pairRow(before: Side, after: Side, spec: RowSpec): void {
  for (const s of [before, after]) {
    const missing = unknownFlags(s, spec.args(s))
    if (missing.length) {
      rows.push({ command: spec.command, goal: spec.goal, agreement: '', note: `not run: the ${s.name} build has no ${missing.join(', ')}` })
      return
    }
  }
  log(`${spec.command.replace(/`/g, '')}…`)
  const runs: Record<Side['name'], Measured[]> = { before: [], after: [] }
  try {
    for (const s of [before, after]) {
      spec.setUp?.(s)
      for (let i = 0; i < (spec.warmup ?? 0); i++) measure(s, spec)
    }
    for (let i = 0; i < spec.pairs; i++) for (const s of i % 2 === 0 ? [before, after] : [after, before]) runs[s.name].push(measure(s, spec))
  } finally {
    for (const s of [before, after]) spec.tearDown?.(s)
  }
  const last = (xs: Measured[]): string => xs[xs.length - 1]!.stdout
  let agreement: string
  try {
    agreement = spec.agree ? spec.agree(last(runs.before), last(runs.after)) : ''
  } catch (err) {
    agreement = `not compared: ${(err as Error).message.split('\n')[0]}`
  }
  rows.push({ command: spec.command, goal: spec.goal, before: runs.before, after: runs.after, agreement, note: spec.cpuNote })
}

/** Cold as a first run on a new machine finds it: no cache folder, nothing saved in the library. */
const makeCold = (s: Side, lib: string): void => {
  fs.rmSync(s.env.SKILLBENCH_CACHE_DIR!, { recursive: true, force: true })
  fs.rmSync(path.join(copyOf(s, lib), '.skillbench'), { recursive: true, force: true })
}

function sleepMs(t: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, t)
}

/** Starts the library's search daemon with a first query and waits (up to 30 s) until it answers. */
function startServer(s: Side, lib: string, query: string): void {
  cli(s, ['query', query, '--library', lib, '--no-touch'])
  for (let i = 0; i < 300; i++) {
    // a build before issue 40 says "search server", later ones "search daemon"
    if (/^a search (?:daemon|server) answers/.test(cli(s, ['search-server', '--status', '--library', lib]).stdout)) return
    sleepMs(100)
  }
  log(`${s.name}: the search daemon did not come up; its warm figures are in process`)
}
const stopServer = (s: Side, lib: string): void => void cli(s, ['search-server', '--stop', '--library', lib])

function helpRows(before: Side, after: Side): void {
  pairRow(before, after, { command: '`skillbench --help`', goal: '—', args: () => ['--help'], pairs: PAIRS * 3, warmup: 1 })
}

function listRows(before: Side, after: Side): void {
  const lib = mixed(QUERY_SIZE)
  pairRow(before, after, {
    command: `\`list --json --no-server\`, ${QUERY_SIZE.toLocaleString('en')} mixed skills`,
    goal: '≤ 400 ms',
    args: (s) => ['list', '--library', copyOf(s, lib), '--json', '--no-server'],
    pairs: PAIRS * 2,
    warmup: 1,
    agree: (a, b) => compareItems(a, b, 'skills')
  })
}

function queryRows(before: Side, after: Side): void {
  for (const [shape, lib] of [
    ['mixed', mixed(QUERY_SIZE)],
    ['zipf', corpus('zipf', QUERY_SIZE)]
  ] as const) {
    const query = shape === 'mixed' ? 'retry http request timeout' : queryOf(lib, false)
    const label = `${QUERY_SIZE.toLocaleString('en')} ${shape} skills, "${query}"`
    const args = (s: Side, ...extra: string[]): string[] => ['query', query, '--library', copyOf(s, lib), '--json', '--no-touch', ...extra]
    pairRow(before, after, {
      command: `\`query\` cold (no cache folder; in process), ${label}`,
      goal: '≤ 2 s',
      args: (s) => args(s, '--no-server'),
      pairs: PAIRS,
      prepare: (s) => makeCold(s, lib),
      agree: compareQueryHits
    })
    pairRow(before, after, {
      command: `\`query\` warm (the library's search daemon answers), ${label}`,
      goal: '≤ 150 ms',
      args: (s) => args(s),
      pairs: PAIRS * 3,
      warmup: 1,
      setUp: (s) => startServer(s, copyOf(s, lib), query),
      tearDown: (s) => stopServer(s, copyOf(s, lib)),
      agree: compareQueryHits,
      cpuNote: "CPU: the client's alone (the daemon's is not counted)"
    })
    pairRow(before, after, {
      command: `\`query\` warm in process (--no-server: the saved index), ${label}`,
      goal: '—',
      args: (s) => args(s, '--no-server'),
      pairs: PAIRS * 2,
      warmup: 1,
      agree: compareQueryHits
    })
  }
}

function curateRows(before: Side, after: Side): void {
  for (const n of CURATE_SIZES) {
    for (const shape of ['corpus', 'zipf'] as const) {
      const lib = corpus(shape, n)
      const label = `${n.toLocaleString('en')} ${shape === 'corpus' ? "skills of the bench's corpus" : 'zipf skills'}`
      const args = (s: Side): string[] => ['curate', '--library', copyOf(s, lib), '--json']
      pairRow(before, after, {
        command: `\`curate --json\` cold (no cache folder, no plan), ${label}`,
        goal: n >= 20_000 ? '≤ 5 s, < 500 MB' : '—',
        args,
        pairs: PAIRS,
        prepare: (s) => makeCold(s, lib),
        agree: compareCuratePlans
      })
      if (shape === 'corpus') {
        pairRow(before, after, {
          command: `\`curate --json\` again, nothing changed, ${label}`,
          goal: '—',
          args,
          pairs: PAIRS,
          warmup: 1,
          agree: compareCuratePlans
        })
      }
    }
  }
}

function scanRows(before: Side, after: Side): void {
  const root = dataRoot()
  const megabytes = (SCAN_TASKS * SCAN_BYTES_PER_TASK) / (1024 * 1024)
  const label = `${SCAN_TASKS} generated AGIAgent tasks (~${megabytes.toFixed(0)} MB of logs)`
  // Both sides read the same root (scan only reads it); their parse caches are their own.
  pairRow(before, after, {
    command: `\`scan --json --no-cache\`, ${label}`,
    goal: '≥ 300 MB/s',
    args: () => ['scan', '--root-dir', root, '--json', '--no-cache'],
    pairs: PAIRS,
    warmup: 1,
    agree: (a, b) => compareItems(a, b, 'tasks')
  })
  pairRow(before, after, {
    command: `\`scan --json\` again (its parse cache), ${label}`,
    goal: '< 300 ms (in process)',
    args: () => ['scan', '--root-dir', root, '--json'],
    pairs: PAIRS * 2,
    warmup: 1,
    agree: (a, b) => compareItems(a, b, 'tasks')
  })
}

// ---------- the report ----------

const ratio = (x: number): string => `×${x.toFixed(2)}`

function tableRow(r: Row): string {
  if (!r.before || !r.after) return `| ${r.command} | ${r.note ?? ''} | | | | | ${r.goal} | |`
  const wall = (xs: Measured[]): number[] => xs.map((x) => x.ms)
  const pairRatios = r.after.map((x, i) => x.ms / r.before![i]!.ms)
  const cpu = (xs: Measured[]): number => median(xs.map((x) => x.cpuMs))
  const rss = (xs: Measured[]): number => Math.max(...xs.map((x) => x.rssKb))
  return [
    '',
    r.command,
    medMin(wall(r.before)),
    medMin(wall(r.after)),
    `${ratio(median(pairRatios))} (${r.before.length} pairs)`,
    `${ms(cpu(r.before))} → ${ms(cpu(r.after))} (${ratio(cpu(r.after) / cpu(r.before))})${r.note ? `; ${r.note}` : ''}`,
    `${mb(rss(r.before))} → ${mb(rss(r.after))}`,
    r.goal,
    r.agreement,
    ''
  ].join(' | ').trim()
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0] ?? 0
  const t0 = Date.now()
  const beforeBuild = prepareCommitBuild(ROOT, REF, log)
  const afterBuild = AFTER_REF ? prepareCommitBuild(ROOT, AFTER_REF, log) : undefined
  if (!afterBuild && process.env.BEFORE_AFTER_NO_BUILD !== '1') {
    log('building this tree (npm run build)…')
    const b = runOnce('npm', ['run', 'build'], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 600_000 })
    if (b.code !== 0) throw new Error(`npm run build failed: ${b.stderr.trim().split('\n').slice(-3).join(' ')}`)
  }
  const afterDir = afterBuild?.dir ?? ROOT
  const stale = buildStaleReason(afterDir)
  if (stale) throw new Error(`the after CLI would run from source (${stale}): run without BEFORE_AFTER_NO_BUILD=1, or npm run build first`)
  const git = (...args: string[]): string => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim()
  const dirty = git('status', '--porcelain', '--untracked-files=no') ? ' + uncommitted changes' : ''
  const before = side('before', `${REF} = ${beforeBuild.sha.slice(0, 7)}`, beforeBuild.dir)
  const after = side('after', afterBuild ? `${AFTER_REF} = ${afterBuild.sha.slice(0, 7)}` : `this tree, ${git('rev-parse', '--short=7', 'HEAD')}${dirty}`, afterDir)
  const setupS = (Date.now() - t0) / 1000
  const steps: Array<[string, (b: Side, a: Side) => void]> = [
    ['help', helpRows],
    ['list', listRows],
    ['query', queryRows],
    ['curate', curateRows],
    ['scan', scanRows]
  ]
  for (const [name, step] of steps) {
    if (!ROWS.has(name)) continue
    try {
      step(before, after)
    } catch (err) {
      rows.push({ command: name, goal: '', agreement: '', note: `failed: ${(err as Error).message.split('\n')[0]}` })
    }
    fs.rmSync(path.join(before.home, 'cache'), { recursive: true, force: true })
  }
  const staleAfter = buildStaleReason(afterDir)
  const loadEnd = os.loadavg()[0] ?? 0
  const out = [
    `## Before and after, in one run (before: ${before.label}; after: ${after.label})`,
    '',
    `The same whole commands of both builds on the same generated data, alternated pair by pair (before → after, then after → before, …), each side with its own copy of the data and its own cache folder. ` +
      `Node ${process.version}, ${os.cpus().length} CPUs, load average ${loadStart.toFixed(1)} at the start and ${loadEnd.toFixed(1)} at the end (other work on the machine inflates wall times; CPU time holds better). ` +
      `Wall: median · min; after ÷ before: the median of the pairs' ratios; CPU: user + system of the process, median; peak RSS: the highest of the runs (/usr/bin/time). ` +
      `The before build: ${beforeBuild.note}${afterBuild ? `; the after build: ${afterBuild.note}` : ''} (set-up ${setupS.toFixed(0)} s).${SMALL ? ' **BEFORE_AFTER_SMALL: libraries 50× smaller than stated.**' : ''}`,
    ...(staleAfter ? ['', `**Not to be trusted: ${staleAfter} during the run (the after CLI ran from source).**`] : []),
    '',
    '| command | before, wall | after, wall | after ÷ before | CPU before → after | peak RSS before → after | goal | the two answers |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(tableRow),
    ''
  ]
  process.stdout.write(out.join('\n') + '\n')
}

runBenchMain(main, tmp)
