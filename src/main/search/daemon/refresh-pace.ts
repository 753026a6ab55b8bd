/**
 * When the search daemon takes in the changes its file notifications told of, without waiting for a question: soon
 * after a lone change, at most once per `minGapMs` while changes keep coming, and always once more after the last
 * one. A folder an agent rewrites every 100 ms used to cost one refresh per write (a re-read and the ranking arrays
 * rebuilt): the daemon busy for as long as the writing went on. Questions are not paced: each one takes in what
 * changed before it is answered, as before. A run that returns a promise is under way until it settles: no other
 * starts meanwhile (a slow one — a walk of a big library, or behind questions in the daemon's queue — would otherwise
 * have one more queued behind it every `minGapMs`); a change seen meanwhile gets one run after it.
 *
 * The saves of a kept index (library-search.ts) are paced the same way: the daemon's every 2 s while writes went on
 * (a ~5 MB delta file each at 10,000 skills), now at most once per 5 s and once more after the last change.
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
  /** The timer does not keep the process alive (a save of a kept index: on shutdown `close` saves it). */
  unref?: boolean
}

/** When the next run starts (pure): `soonMs` after the change, and not before `minGapMs` after the last run started. */
export function refreshAt(now: number, lastRun: number, soonMs: number, minGapMs: number): number {
  return Math.max(now + soonMs, lastRun + minGapMs)
}

/** `run` may return a promise: the run is under way until it settles (any other value: over at once). */
export function paceRefresh(run: () => unknown, opts: RefreshPaceOptions = {}): RefreshPace {
  const soonMs = opts.soonMs ?? 25
  const minGapMs = opts.minGapMs ?? 1000
  let timer: NodeJS.Timeout | undefined
  let lastRun = -Infinity
  let cancelled = false
  /** A run started and not yet settled; `missed`: a change was seen meanwhile. */
  let running = false
  let missed = false
  const schedule = (): void => {
    const now = Date.now()
    timer = setTimeout(start, refreshAt(now, lastRun, soonMs, minGapMs) - now)
    if (opts.unref) timer.unref()
  }
  const start = (): void => {
    timer = undefined
    lastRun = Date.now()
    const done = run()
    if (!isThenable(done)) return
    running = true
    const over = (): void => {
      running = false
      if (missed && !cancelled) {
        missed = false
        schedule()
      }
    }
    done.then(over, over)
  }
  return {
    poke() {
      // A run already set covers this change: it takes in everything seen up to its start. A change seen after
      // it started sets the next one (once it is over), so the last change is always followed by a run.
      if (timer || cancelled) return
      if (running) missed = true
      else schedule()
    },
    cancel() {
      cancelled = true
      clearTimeout(timer)
      timer = undefined
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function'
}
