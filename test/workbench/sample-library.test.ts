/**
 * How the app knows the bundled sample library: its libraries are listed `sample: true` when they live in the copy
 * of resources/sample-data that `npm start` makes in the settings folder (scripts/start.cjs) or in the bundled
 * folder itself, and in no other folder, even one named sample-data or holding the same files.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LibraryInfo } from '../../src/shared/api'
import { isInsideAny, sampleRoots } from '../../src/main/config/sample-data'
import { benchesDisposedAfterEach, SAMPLE_ROOT, tempDir } from './helpers'

const bench = benchesDisposedAfterEach()

describe('the sample library', () => {
  it('is the copy in the settings folder, as npm start makes it on a first run', async () => {
    const settingsDir = tempDir('settings')
    const copy = path.join(settingsDir, 'sample-data')
    fs.cpSync(SAMPLE_ROOT, copy, { recursive: true })
    const b = await bench({}, copy, settingsDir)
    const libs = await b.call<LibraryInfo[]>('libraries.list')
    expect(libs.map((l) => [l.user, l.sample])).toEqual([
      ['alice', true],
      ['bob', true]
    ])
  })

  it('is never the bundled folder itself: the workbench refuses it as a root for this run, naming the copy', async () => {
    const settingsDir = tempDir('settings')
    await expect(bench({}, SAMPLE_ROOT, settingsDir)).rejects.toMatchObject({ code: 'bad_request' })
    await expect(bench({}, SAMPLE_ROOT, settingsDir)).rejects.toThrow(path.join(settingsDir, 'sample-data'))
  })

  it('is not a copy elsewhere, nor a library opened from another folder', async () => {
    const elsewhere = path.join(tempDir('root'), 'sample-data')
    fs.cpSync(SAMPLE_ROOT, elsewhere, { recursive: true })
    const b = await bench({}, elsewhere)
    const opened = path.join(tempDir('lib'), 'skills')
    fs.mkdirSync(opened)
    await b.call('libraries.open', { path: opened })
    const libs = await b.call<LibraryInfo[]>('libraries.list')
    expect(libs.length).toBe(3)
    expect(libs.map((l) => l.sample)).toEqual([undefined, undefined, undefined])
  })

  it('inside: the folder itself or below it, never a sibling that shares its name as a prefix', () => {
    expect(isInsideAny('/a/sample-data', ['/a/sample-data'])).toBe(true)
    expect(isInsideAny('/a/sample-data/alice/general/experience', ['/a/sample-data'])).toBe(true)
    expect(isInsideAny('/a/sample-data-2/alice', ['/a/sample-data'])).toBe(false)
    expect(isInsideAny('/a', ['/a/sample-data'])).toBe(false)
    expect(sampleRoots(tempDir('settings'), path.join(tempDir('res'), 'none'))).toEqual([])
  })
})
