import { describe, expect, it } from 'vitest'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import type { CurationPlan } from '../../src/shared/types'
import { PARALLEL_MIN_DOCS } from '../../src/main/text/all-pairs'
import { JoinArena } from '../../src/main/text/join-arena'
import { makeCorpusLibrary } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const planJson = (plan: CurationPlan): string => JSON.stringify({ ...plan, created_at: undefined })

describe("curation's join kernels", () => {
  it('plans a library large enough for worker threads the same with the WebAssembly kernel as with the JavaScript one', async () => {
    // The default run takes the WebAssembly path here: the library is over the workers' size and the arena exists.
    const n = PARALLEL_MIN_DOCS + 400
    expect(JoinArena.create()).toBeDefined()
    const dir = makeCorpusLibrary(n, 7)
    const webassembly = planJson(await curateLibrary(await openForCuration(dir), { now: NOW }))
    process.env.SKILLBENCH_JOIN_KERNEL = 'javascript'
    let javascript: string
    try {
      javascript = planJson(await curateLibrary(await openForCuration(dir), { now: NOW }))
    } finally {
      delete process.env.SKILLBENCH_JOIN_KERNEL
    }
    expect((JSON.parse(webassembly) as CurationPlan).proposals.filter((p) => p.kind === 'merge' || p.kind === 'consolidate').length).toBeGreaterThan(10)
    expect(webassembly).toBe(javascript)
  }, 60_000)
})
