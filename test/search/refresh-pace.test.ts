/**
 * The search daemon's pace for taking in changes without a question (search/daemon/refresh-pace.ts), on a fake
 * clock: a lone change 25 ms later, a change every 100 ms at most once a second, always once after the last.
 * (The daemon's own test counts the same with a real daemon process and a real writer.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { paceRefresh, refreshAt } from '../../src/main/search/daemon/refresh-pace'

beforeEach(() => void vi.useFakeTimers({ now: 1_000_000 }))
afterEach(() => void vi.useRealTimers())

describe('paceRefresh', () => {
  it('runs 25 ms after a lone change, and once for changes that come together', () => {
    const runs: number[] = []
    const pace = paceRefresh(() => runs.push(Date.now()))
    pace.poke()
    vi.advanceTimersByTime(10)
    pace.poke()
    expect(runs).toEqual([])
    vi.advanceTimersByTime(15)
    expect(runs).toEqual([1_000_025])
    vi.advanceTimersByTime(10_000)
    expect(runs).toHaveLength(1)
    // a lone change long after: 25 ms again
    pace.poke()
    vi.advanceTimersByTime(25)
    expect(runs).toEqual([1_000_025, 1_010_050])
  })

  it('runs at most once a second while changes keep coming, and once after the last', () => {
    const runs: number[] = []
    const pace = paceRefresh(() => runs.push(Date.now()))
    // a change every 100 ms for 3 s
    for (let i = 0; i < 30; i++) {
      pace.poke()
      vi.advanceTimersByTime(100)
    }
    const lastChange = Date.now() - 100
    vi.advanceTimersByTime(5_000)
    expect(runs.length).toBeLessThanOrEqual(5)
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(1000)
    // the last run started after the last change, within a second of it
    expect(runs.at(-1)!).toBeGreaterThan(lastChange)
    expect(runs.at(-1)! - lastChange).toBeLessThanOrEqual(1000)
  })

  it('a change seen while a run is under way gets a run of its own; none after cancel', () => {
    const runs: number[] = []
    const pace = paceRefresh(() => {
      runs.push(Date.now())
      if (runs.length === 1) pace.poke() // a write noticed as the run starts
    })
    pace.poke()
    vi.advanceTimersByTime(25)
    expect(runs).toHaveLength(1)
    vi.advanceTimersByTime(1000)
    expect(runs).toEqual([1_000_025, 1_001_025])
    pace.poke()
    pace.cancel()
    pace.poke()
    vi.advanceTimersByTime(5_000)
    expect(runs).toHaveLength(2)
  })

  it('never starts a run while the one before is still going: the changes seen meanwhile get one run after it', async () => {
    // A slow refresh (a walk of a big library, behind questions in the daemon's queue) must not have the next ones
    // queued behind it, one a second for as long as the writing goes on.
    const starts: number[] = []
    const finish: (() => void)[] = []
    const pace = paceRefresh(() => {
      starts.push(Date.now())
      return new Promise<void>((resolve) => finish.push(resolve))
    })
    // a change every 100 ms for 5 s; the first run takes all that time
    for (let i = 0; i < 50; i++) {
      pace.poke()
      await vi.advanceTimersByTimeAsync(100)
    }
    expect(starts).toEqual([1_000_025])
    finish[0]!()
    await vi.advanceTimersByTimeAsync(5_000)
    // one more run, soon after the slow one ended, for everything it may have missed
    expect(starts).toHaveLength(2)
    expect(starts[1]! - 1_005_000).toBeLessThanOrEqual(25)
    finish[1]!()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(starts).toHaveLength(2)
    // a run that fails is over too: the next change gets its run
    const failing = paceRefresh(() => {
      starts.push(Date.now())
      return Promise.reject(new Error('walk failed'))
    })
    failing.poke()
    await vi.advanceTimersByTimeAsync(25)
    failing.poke()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(starts).toHaveLength(4)
  })

  it('refreshAt: soon after the change, never sooner than the gap after the last run', () => {
    expect(refreshAt(100, -Infinity, 25, 1000)).toBe(125)
    expect(refreshAt(100, 0, 25, 1000)).toBe(1000)
    expect(refreshAt(5000, 0, 25, 1000)).toBe(5025)
  })
})
