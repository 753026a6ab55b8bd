/** Worker thread entry: reads its share of a cold build's files (see read-docs.ts) and posts the batch back. */
import { parentPort, workerData } from 'node:worker_threads'
import type { Candidate } from '../store/walk'
import { readDocs } from './read-docs'

const batch = readDocs(workerData as Candidate[])
parentPort!.postMessage(batch, [batch.ptr.buffer as ArrayBuffer, batch.ids.buffer as ArrayBuffer, batch.counts.buffer as ArrayBuffer])
