/**
 * The one way the product starts worker threads (the similarity join, the text scan, the search index's file
 * reads): a program handed over as source text, run in a worker started ahead of need when one waits. A new
 * worker spends ~100–150 ms loading Node's internals before it runs a line of its program; started while this
 * thread still lists and reads files, that start-up overlaps work instead of delaying the scan, the join or the
 * reads. A program is either self-contained source (functions written into it with `fn.toString()`) or loads a
 * worker file (`fileWorkerSource`); either way it runs exactly as in a worker started for it: same source text,
 * same `workerData` (set on `node:worker_threads` before the program runs, so a file it requires reads it too).
 */
import { Worker } from 'node:worker_threads'

// A warm worker waits for one program, then runs it with `require('node:worker_threads').workerData` as given.
const WARM_SOURCE = `
const threads = require('node:worker_threads')
threads.parentPort.once('message', (m) => {
  threads.workerData = m.workerData
  new Function('require', m.source)(require)
})
`

/**
 * The source of a program that runs a worker file (compiled JavaScript), or — for a TypeScript file, running from
 * the sources (tsx, tests) — that registers tsx's require hook first (`--import` loader hooks do not reach worker
 * threads). Null when tsx cannot be found for a TypeScript file.
 */
export function fileWorkerSource(file: string): string | null {
  if (!file.endsWith('.ts')) return `require(${JSON.stringify(file)})`
  try {
    return `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)})`
  } catch {
    return null
  }
}

const idle: Worker[] = []

/**
 * Starts workers until `count` wait idle. Idle workers never keep the process alive; one that fails to start
 * is dropped (startWorker then starts a fresh one).
 */
export function warmWorkers(count: number): void {
  while (idle.length < count) {
    let worker: Worker
    try {
      worker = new Worker(WARM_SOURCE, { eval: true })
    } catch {
      return
    }
    worker.unref()
    const drop = (): void => {
      const at = idle.indexOf(worker)
      if (at >= 0) idle.splice(at, 1)
    }
    // An idle worker's failure is nobody's error yet: it is only taken out of the pool.
    worker.on('error', drop)
    worker.once('exit', drop)
    idle.push(worker)
  }
}

/** Idle warm workers (for tests and diagnostics). */
export function warmWorkerCount(): number {
  return idle.length
}

/** Runs `source` (a worker program) in a warm worker when one waits, else in a worker started for it. */
export function startWorker(source: string, workerData: unknown): Worker {
  const warm = idle.shift()
  if (!warm) return new Worker(source, { eval: true, workerData })
  warm.ref()
  warm.postMessage({ source, workerData })
  return warm
}

/**
 * Stops the idle workers beyond `keep` (a process that warmed more than it will use: each idle one holds ~9 MB).
 */
export function releaseWarmWorkers(keep = 0): void {
  for (const worker of idle.splice(Math.max(0, keep))) void worker.terminate()
}
