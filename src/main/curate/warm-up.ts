/**
 * Starting the worker threads curation will use before they are needed: the text scan's one (large libraries)
 * and the similarity join's. Their start-up then overlaps listing and reading the library.
 */
import fs from 'node:fs'
import { joinWorkerCount } from '../text/all-pairs'
import { PARALLEL_SCAN_MIN_DOCS } from '../text/doc-terms'
import { warmWorkers } from '../text/warm-workers'

/** Workers the index build and the join take for a library of `skills` active skills. */
export function curationWorkers(skills: number): number {
  return joinWorkerCount(skills) + (skills >= PARALLEL_SCAN_MIN_DOCS ? 1 : 0)
}

/** Warms the workers for a library of about `skills` skills (never more than that needs). */
export function warmCurationWorkers(skills: number): void {
  warmWorkers(curationWorkers(skills))
}

/**
 * Warms workers by a first guess of the library's size (the entries of its top folder: one read, no stats),
 * before it is listed. Libraries kept in subfolders look small here and are simply warmed after the listing.
 */
export async function warmForFolder(dir: string): Promise<void> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[])
  warmCurationWorkers(names.length)
}
