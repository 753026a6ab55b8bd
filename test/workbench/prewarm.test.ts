/**
 * The prewarm (store listing and the first library's overview graph, computed while a window or browser starts)
 * lets the first screen's calls go first: it does not compute while an API call is running.
 */
import { describe, expect, it, vi } from 'vitest'
import { createCoreModules } from '../../src/main/workbench/core-modules'
import { openTestBench } from './helpers'

describe('workbench prewarm', () => {
  it('waits while a call is in flight, then computes the first library graph', async () => {
    const core = await createCoreModules()
    let graphs = 0
    const similarityGraph = core.similarityGraph
    core.similarityGraph = (skills, thresholds) => {
      graphs++
      return similarityGraph(skills, thresholds)
    }
    // a slow first-screen call: the scan of the data root answers only when released
    let release = (): void => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const scanRoot = core.scanRoot
    core.scanRoot = async (root, previous) => {
      await gate
      return scanRoot(root, previous)
    }
    const bench = await openTestBench({ core })
    try {
      const roots = await bench.call<Array<{ path: string }>>('roots.list')
      const slow = bench.call('tasks.list', { root: roots[0]!.path })
      // past the idle wait, the prewarm looked twice, found tasks.list still running and held back: nothing computed
      await vi.waitFor(() => expect(bench.wb.prewarmHeldBack()).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 20 })
      expect(graphs).toBe(0)
      release()
      await slow
      await vi.waitFor(() => expect(graphs).toBe(1), { timeout: 30_000, interval: 20 })
    } finally {
      release()
      await bench.wb.dispose()
    }
  })
})
