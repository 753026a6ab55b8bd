/**
 * Timing whole processes for the benches: wall time spawn → exit, peak RSS and CPU time from /usr/bin/time, medians.
 * Shared by commands.bench.ts, shapes.bench.ts and before-after.bench.ts.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const TIME = '/usr/bin/time'

export interface Run {
  ms: number
  code: number | null
  stdout: string
  stderr: string
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}
export const ms = (x: number): string => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`)
export const medMin = (xs: number[]): string => `${ms(median(xs))} · min ${ms(Math.min(...xs))}`
export const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`

/** One whole process, wall time from spawn to exit (`opts` must give cwd and env). */
export function runOnce(cmd: string, args: string[], opts: SpawnSyncOptions): Run {
  const t0 = performance.now()
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts })
  const elapsed = performance.now() - t0
  return { ms: elapsed, code: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') }
}

function failure(cmd: string, args: string[], r: Run): Error {
  return new Error(`${path.basename(cmd)} ${args.slice(0, 3).join(' ')} failed (${r.code}): ${r.stderr.trim().split('\n').slice(-1)[0]}`)
}

/** `runs` timed runs after `warmup` untimed ones; `before` runs ahead of each (untimed). Throws on a failed run. */
export function timeRuns(cmd: string, args: string[], runs: number, warmup: number, opts: SpawnSyncOptions & { before?: () => void }): number[] {
  const samples: number[] = []
  for (let i = 0; i < warmup + runs; i++) {
    opts.before?.()
    const r = runOnce(cmd, args, opts)
    if (r.code !== 0) throw failure(cmd, args, r)
    if (i >= warmup) samples.push(r.ms)
  }
  return samples
}

/** One run under /usr/bin/time (its report written into `scratch`): wall time (ms), peak RSS (KB), the run's output. */
export function timeWithRss(scratch: string, cmd: string, args: string[], opts: SpawnSyncOptions): Run & { rssKb: number; cpuMs: number } {
  const out = path.join(scratch, `time-${process.hrtime.bigint()}.txt`)
  const r = runOnce(TIME, ['-f', '%M %U %S', '-o', out, cmd, ...args], opts)
  if (r.code !== 0) throw failure(cmd, args, r)
  // peak RSS (kB), then user and system CPU seconds of the process and every thread and child it waited for
  const [rss, user, sys] = (fs.readFileSync(out, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number)
  return { ...r, rssKb: rss ?? NaN, cpuMs: 1000 * ((user ?? NaN) + (sys ?? NaN)) }
}

/**
 * Why `skillbench` would not run the build (bin/skillbench.cjs runs the sources through tsx then), or ''. A source
 * edited while a bench runs makes every later row time tsx instead of the build: such rows are not reported.
 */
export function buildStaleReason(root: string): string {
  let manifest: { builtAt: number; sources: string[] }
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(root, 'out', 'main', 'cli-sources.json'), 'utf8'))
  } catch {
    return 'there is no build'
  }
  const changed = manifest.sources.find((source) => (fs.statSync(path.join(root, source), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > manifest.builtAt)
  return changed ? `${changed} changed after the build` : ''
}

/** Runs a bench's `main`: a failure's stack on stderr and exit code 1; its scratch folder removed either way. */
export function runBenchMain(main: () => Promise<void>, scratch: string): void {
  main()
    .catch((err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
      process.exitCode = 1
    })
    .finally(() => fs.rmSync(scratch, { recursive: true, force: true }))
}
