/**
 * Starting the worker threads curation takes before they are needed: the index build's helper (its counting sorts
 * on two threads) and the similarity join's. Their start-up (~100–150 ms each) then overlaps reading the library
 * or building the index instead of delaying the work that takes them.
 */
import { joinWorkerCount } from '../text/all-pairs'
import { warmWorkers } from '../text/warm-workers'

/** From this many skills the index's counting sorts take a helper thread (text/index-sort.ts). */
export const SORT_HELPER_MIN_SKILLS = 8000

/** Workers a library of `skills` skills takes: the join's, and the index build's helper on large libraries. */
export function curationWorkers(skills: number): number {
  return joinWorkerCount(skills) + (skills >= SORT_HELPER_MIN_SKILLS ? 1 : 0)
}

/** Warms the workers for a library of about `skills` skills (never more than that needs). */
export function warmCurationWorkers(skills: number): void {
  warmWorkers(curationWorkers(skills))
}
