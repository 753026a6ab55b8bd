/**
 * A cold build reads and tokenizes thousands of files: split over the cores (this thread plus
 * worker threads), which halves it on a 2-core machine. Small reads stay on this thread (a worker costs tens of
 * milliseconds to start). Workers start as every worker of the product does (text/warm-workers.ts: a warm one when
 * one waits). Anything a worker cannot do (no worker file next to this build, a thread that fails) is done here
 * instead: the result is the same either way.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Worker } from 'node:worker_threads'
import { fileWorkerSource, startWorker } from '../text/warm-workers'
import type { Candidate } from '../store/walk'
import { readDocs, type ReadBatch } from './read-docs'
import type { TermDictionary } from '../text/tokenize'

/** Fewer files than this are read on the calling thread. */
const MIN_FILES_FOR_WORKERS = 600
const MAX_THREADS = 4

/**
 * The program of a read worker: the entry built next to the CLI (out/main/search-worker.js), or — running from the
 * TypeScript sources — read-worker.ts itself; null when neither is there.
 */
function workerProgram(): string | null {
  const here = __dirname
  const files = __filename.endsWith('.ts') ? [path.join(here, 'read-worker.ts')] : [path.join(here, 'search-worker.js'), path.join(here, '..', 'search-worker.js')]
  const file = files.find((f) => fs.existsSync(f))
  return file ? fileWorkerSource(file) : null
}

function inWorker(program: string, share: Candidate[]): Promise<ReadBatch> {
  return new Promise((resolve) => {
    let settled = false
    const local = (): void => {
      if (!settled) {
        settled = true
        resolve(readDocs(share))
      }
    }
    let worker: Worker
    try {
      worker = startWorker(program, share)
    } catch {
      local()
      return
    }
    worker.once('message', (batch: ReadBatch) => {
      settled = true
      resolve(batch)
      void worker.terminate()
    })
    worker.once('error', local)
    worker.once('exit', local)
  })
}

/** The workers a read of `files` files would use, to be warmed while the library is still walked. */
export function readWorkerCount(files: number, threads = Math.min(os.availableParallelism(), MAX_THREADS)): number {
  return files >= MIN_FILES_FOR_WORKERS && threads > 1 ? threads - 1 : 0
}

/**
 * Reads the files (in this order), split over the cores when there are many. `dict`: the caller's dictionary,
 * which this thread's own batches use directly (read-docs.ts).
 */
export async function readDocsInParallel(
  candidates: readonly Candidate[],
  opts: { threads?: number; minFiles?: number; onBatch?: (batch: ReadBatch) => void; dict?: TermDictionary } = {}
): Promise<ReadBatch[]> {
  const threads = opts.threads ?? Math.min(os.availableParallelism(), MAX_THREADS)
  const entry = candidates.length >= (opts.minFiles ?? MIN_FILES_FOR_WORKERS) && threads > 1 ? workerProgram() : null
  const batches: ReadBatch[] = []
  const take = (batch: ReadBatch): void => {
    batches.push(batch)
    opts.onBatch?.(batch)
  }
  if (!entry) {
    take(readDocs(candidates, opts.dict))
    return batches
  }
  // Contiguous shares keep the order; every share mixes languages as the library does.
  const size = Math.ceil(candidates.length / threads)
  const shares = Array.from({ length: threads }, (_, k) => candidates.slice(k * size, (k + 1) * size)).filter((s) => s.length > 0)
  const others = shares.slice(1).map((share) => inWorker(entry, share))
  // This thread's share is handed on at once (in order: it is the first), while the workers finish theirs.
  take(readDocs(shares[0]!, opts.dict))
  for (const other of others) take(await other)
  return batches
}
