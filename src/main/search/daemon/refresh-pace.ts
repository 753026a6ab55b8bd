/**
 * When the search daemon takes in the changes its file notifications told of, without waiting for a question: soon
 * after a lone change, at most once per `minGapMs` while changes keep coming, and always once more after the last
 * one. A folder an agent rewrites every 100 ms used to cost one refresh per write (a re-read and the ranking arrays
 * rebuilt): the daemon busy for as long as the writing went on. Questions are not paced: each one takes in what
 * changed before it is answered, as before.
 */

export interface RefreshPace {
  /** A change was seen: `run` is called once, at `refreshAt` of now. */
  poke(): void
  /** No more runs (stepping down). */
  cancel(): void
}

export interface RefreshPaceOptions {
  /** How long after a lone change (default 25 ms: the writes of one save arrive together). */
  soonMs?: number
  /** The least time between the starts of two runs (default 1000 ms). */
  minGapMs?: number
}

/** When the next run starts (pure): `soonMs` after the change, and not before `minGapMs` after the last run started. */
export function refreshAt(now: number, lastRun: number, soonMs: number, minGapMs: number): number {
  return Math.max(now + soonMs, lastRun + minGapMs)
}

export function paceRefresh(run: () => void, opts: RefreshPaceOptions = {}): RefreshPace {
  const soonMs = opts.soonMs ?? 25
  const minGapMs = opts.minGapMs ?? 1000
  let timer: NodeJS.Timeout | undefined
  let lastRun = -Infinity
  let cancelled = false
  return {
    poke() {
      // A run already set covers this change: it takes in everything seen up to its start. A change seen after
      // it started sets the next one, so the last change is always followed by a run.
      if (timer || cancelled) return
      const now = Date.now()
      timer = setTimeout(() => {
        timer = undefined
        lastRun = Date.now()
        run()
      }, refreshAt(now, lastRun, soonMs, minGapMs) - now)
    },
    cancel() {
      cancelled = true
      clearTimeout(timer)
      timer = undefined
    }
  }
}
