/**
 * Worker threads started ahead of need. A new worker spends ~100–150 ms loading Node's internals before it runs
 * a line of its program; started while this thread still lists and reads files, that start-up overlaps work
 * instead of delaying the text scan and the similarity join. A program handed to a warm worker runs exactly as
 * it would in a worker started for it: same source text, same `workerData` (through the module it requires).
 */
import { Worker } from 'node:worker_threads'

// A warm worker waits for one program, then runs it with `require('node:worker_threads').workerData` as given.
const WARM_SOURCE = `
const threads = require('node:worker_threads')
threads.parentPort.once('message', (m) => {
  const view = { ...threads, workerData: m.workerData }
  const programRequire = (id) => (id === 'node:worker_threads' || id === 'worker_threads' ? view : require(id))
  new Function('require', m.source)(programRequire)
})
`

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
