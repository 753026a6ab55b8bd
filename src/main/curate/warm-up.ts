/**
 * Starting the similarity join's worker threads before they are needed: their start-up (~100–150 ms each) then
 * overlaps reading the library or building the index instead of delaying the join.
 */
import { joinWorkerCount } from '../text/all-pairs'
import { warmWorkers } from '../text/warm-workers'

/** Warms the join's workers for a library of about `skills` skills (never more than that needs). */
export function warmCurationWorkers(skills: number): void {
  warmWorkers(joinWorkerCount(skills))
}
