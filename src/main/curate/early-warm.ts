/**
 * The first worker thread of a large library's curation, started before curation's own modules load. A first run
 * of `skillbench curate` on a few thousand skills streams its text scan to a worker (text/streamed-scan.ts) that
 * was the slowest thread of the read: it started once the library was listed, after ~50 ms of module loading, and
 * then spent as long again starting up. Started here, its start-up overlaps the module loading; the scan (or the
 * join, on a run that reuses its terms) takes it from the warm pool. Kept small: it runs before the heavy imports.
 */
import fs from 'node:fs'
import { warmWorkers } from '../text/warm-workers'

/**
 * Entries at the top of a library folder from which a worker is started early: the fewest documents for which
 * curation uses a worker at all (text/streamed-scan.ts STREAMED_SCAN_MIN_DOCS, text/all-pairs.ts PARALLEL_MIN_DOCS;
 * a test keeps them equal). One skill is one entry (a file, or a SKILL.md's folder).
 */
export const EARLY_WARM_MIN_ENTRIES = 2000

/**
 * Whether a folder holds at least `n` entries, reading no more of it than that (a few hundred µs: 20,000 names
 * read whole cost the listing's time again). False for a folder that cannot be read.
 */
export function holdsAtLeast(folder: string, n: number): boolean {
  let dir: fs.Dir | undefined
  try {
    dir = fs.opendirSync(folder, { bufferSize: 1024 })
    let seen = 0
    while (seen < n && dir.readSync() !== null) seen++
    return seen >= n
  } catch {
    return false
  } finally {
    dir?.closeSync()
  }
}

/** Starts one worker when the library folder is large enough for curation to use one (see the module comment). */
export function warmBeforeOpening(libraryDir: string): boolean {
  if (!holdsAtLeast(libraryDir, EARLY_WARM_MIN_ENTRIES)) return false
  warmWorkers(1)
  return true
}
