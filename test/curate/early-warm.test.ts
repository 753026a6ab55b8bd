import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EARLY_WARM_MIN_ENTRIES, holdsAtLeast, warmBeforeOpening } from '../../src/main/curate/early-warm'
import { PARALLEL_MIN_DOCS } from '../../src/main/text/all-pairs'
import { STREAMED_SCAN_MIN_DOCS } from '../../src/main/text/streamed-scan'
import { releaseWarmWorkers, warmWorkerCount } from '../../src/main/text/warm-workers'

const dirs: string[] = []
function folderWith(entries: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'early-warm-'))
  dirs.push(dir)
  for (let i = 0; i < entries; i++) fs.writeFileSync(path.join(dir, `skill_${i}.md`), '')
  return dir
}

afterEach(() => {
  releaseWarmWorkers()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('a large library’s first worker, started before curation loads', () => {
  it('counts a folder’s entries up to the number asked, and a missing folder as none', () => {
    const dir = folderWith(5)
    expect(holdsAtLeast(dir, 5)).toBe(true)
    expect(holdsAtLeast(dir, 6)).toBe(false)
    expect(holdsAtLeast(path.join(dir, 'missing'), 1)).toBe(false)
  })

  it('starts exactly at the size from which curation uses a worker', () => {
    expect(EARLY_WARM_MIN_ENTRIES).toBe(Math.min(STREAMED_SCAN_MIN_DOCS, PARALLEL_MIN_DOCS))
    expect(warmBeforeOpening(folderWith(EARLY_WARM_MIN_ENTRIES - 1))).toBe(false)
    expect(warmWorkerCount()).toBe(0)
    expect(warmBeforeOpening(folderWith(EARLY_WARM_MIN_ENTRIES))).toBe(true)
    expect(warmWorkerCount()).toBe(1)
  })
})
