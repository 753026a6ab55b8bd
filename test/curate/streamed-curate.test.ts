import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import type { CurationPlan } from '../../src/shared/types'
import { STREAMED_SCAN_MIN_DOCS } from '../../src/main/text/streamed-scan'
import { similarityParts } from '../../src/main/curate/proposals'
import { documentKey, loadTermCache, termCacheFile } from '../../src/main/curate/term-cache'
import { makeCorpusLibrary, makeLibrary, tempDir } from './fixtures'

const NOW = new Date('2026-11-21T12:00:00Z')
const ROOT = path.resolve(__dirname, '..', '..')
const planJson = (plan: CurationPlan): string => JSON.stringify({ ...plan, created_at: undefined })

describe('curation with the text scanned while the library is read', () => {
  it("plans a first run the same as without it, and later runs (the term cache's) do not stream", async () => {
    const n = STREAMED_SCAN_MIN_DOCS + 400
    const dir = makeCorpusLibrary(n, 11)
    const cacheDir = tempDir('streamed-cache')
    const first = await openForCuration(dir, { toCurate: { cacheDir } })
    const streamed = first.streamedScan
    expect(streamed).toBeDefined()
    const streamedPlan = planJson(await curateLibrary(first, { now: NOW, cacheDir }))
    // Every active skill's scan came from the worker.
    expect(streamed!.deliveredDocs).toBe(n)
    const plain = planJson(await curateLibrary(await openForCuration(dir), { now: NOW }))
    expect((JSON.parse(plain) as CurationPlan).proposals.filter((p) => p.kind === 'merge' || p.kind === 'consolidate').length).toBeGreaterThan(10)
    expect(streamedPlan).toBe(plain)
    const second = await openForCuration(dir, { toCurate: { cacheDir } })
    expect(second.streamedScan).toBeUndefined()
    // The first run kept every skill's terms under the key documentKey gives it (the worker computed them).
    const keys = second.listing!.skills.filter((s) => !s.legacy).map((s) => documentKey(similarityParts(s)))
    const reuse = loadTermCache(termCacheFile(cacheDir, second.root), second.root, true, keys)
    expect(reuse && Array.from(reuse.rowOf).every((r) => r >= 0)).toBe(true)
    expect(planJson(await curateLibrary(second, { now: NOW, cacheDir }))).toBe(plain)
  }, 90_000)

  it('stops when asked: while the library is read, and while the streamed scan is collected (no plan saved)', async () => {
    const n = STREAMED_SCAN_MIN_DOCS + 100
    const dir = makeCorpusLibrary(n, 5)
    const cacheDir = tempDir('streamed-cache')
    await expect(openForCuration(dir, { toCurate: { cacheDir }, signal: AbortSignal.abort() })).rejects.toThrow(/aborted/)
    // Asked to stop once the plan starts: the streamed scan's chunks are being collected then.
    const opened = await openForCuration(dir, { toCurate: { cacheDir } })
    const streamed = opened.streamedScan
    expect(streamed).toBeDefined()
    const stop = new AbortController()
    const run = curateLibrary(opened, { now: NOW, cacheDir, signal: stop.signal, onProgress: (p) => p.step === 1 && p.done === undefined && stop.abort() })
    await expect(run).rejects.toThrow(/aborted/)
    expect(streamed!.covers(streamed!.docs)).toBe(false) // closed
    expect(fs.existsSync(path.join(opened.root, '.skillbench', 'plan.json'))).toBe(false)
  }, 90_000)

  it('several first runs at once, as processes, on a library large enough to stream: the same plan, one usable term cache, nothing left over', async () => {
    const dir = makeCorpusLibrary(STREAMED_SCAN_MIN_DOCS + 100, 13)
    const cacheDir = tempDir('streamed-procs')
    const env = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: cacheDir, SKILLBENCH_CONFIG_DIR: tempDir('streamed-config') }
    const runOne = (): Promise<{ code: number | null; stdout: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'curate', '--library', dir, '--json', '--no-usage'], { env, cwd: ROOT })
        let stdout = ''
        child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
        child.on('close', (code) => resolve({ code, stdout }))
      })
    const runs = await Promise.all([runOne(), runOne(), runOne()])
    const clockless = (s: string): string => s.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, 'T')
    for (const r of runs) expect(r.code).toBe(0)
    expect(new Set(runs.map((r) => clockless(r.stdout))).size).toBe(1)
    expect((JSON.parse(runs[0]!.stdout) as CurationPlan).proposals.length).toBeGreaterThan(0)
    const opened = await openForCuration(dir)
    const keys = opened.listing!.skills.filter((s) => !s.legacy).map((s) => documentKey(similarityParts(s)))
    const reuse = loadTermCache(termCacheFile(cacheDir, opened.root), opened.root, true, keys)
    expect(reuse && Array.from(reuse.rowOf).every((r) => r >= 0)).toBe(true)
    expect(fs.readdirSync(path.join(cacheDir, 'curate')).filter((n) => n.endsWith('.tmp'))).toEqual([])
    // The next run takes the kept terms (no streaming) and plans the same.
    const again = await runOne()
    expect(clockless(again.stdout)).toBe(clockless(runs[0]!.stdout))
  }, 120_000)

  it('does not stream a small library', async () => {
    const dir = makeLibrary([{ id: '1900000001', title: 'One', body: 'Only one skill.', created: '2026-11-01T00:00:00' }])
    const opened = await openForCuration(dir, { toCurate: { cacheDir: tempDir('streamed-cache') } })
    expect(opened.streamedScan).toBeUndefined()
  })
})
