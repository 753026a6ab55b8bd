/**
 * The saved search index keeps why a file does not load with its code (reasonForCache); an index an older build
 * saved holds the words only, and still lists: the code read back through the table, the same as a fresh listing.
 */
import fs from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { LoadError } from '../../src/shared/types'
import type * as CodedReason from '../../src/shared/coded-reason'
import { loadSearchIndex, searchDeltaFile, searchIndexFile } from '../../src/main/search/open'
import { LibrarySearch } from '../../src/main/search/library-search'
import { openLibrary } from '../../src/main/store/library'
import { makeBrokenLibrary } from '../store/broken-library'

/** While set, the index is saved as an older build saved it: each reason's words only. */
const older = vi.hoisted(() => ({ build: false }))
vi.mock('../../src/shared/coded-reason', async (importOriginal) => {
  const real = await importOriginal<typeof CodedReason>()
  return { ...real, reasonForCache: (why: { reason: string }) => (older.build ? why.reason : real.reasonForCache(why as never)) }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

/** A reason's params as read back from words: numbers as their digits, nested reasons too. */
function numbersAsDigits<T>(value: T): T {
  if (typeof value === 'number') return String(value) as T
  if (Array.isArray(value)) return value.map(numbersAsDigits) as T
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbersAsDigits(v)])) as T
  return value
}

const unreadable = (errors: LoadError[]): LoadError[] => errors.filter((e) => e.kind === 'unreadable').sort((a, b) => (a.path < b.path ? -1 : 1))

async function savedListing(dir: string, olderBuild: boolean): Promise<{ file: Buffer; errors: LoadError[] }> {
  fs.rmSync(searchIndexFile(dir), { force: true })
  fs.rmSync(searchDeltaFile(dir), { force: true })
  older.build = olderBuild
  try {
    await LibrarySearch.open(dir)
  } finally {
    older.build = false
  }
  return { file: fs.readFileSync(searchIndexFile(dir)), errors: unreadable(loadSearchIndex(dir).listing(true).errors) }
}

describe('load reasons in the saved search index', () => {
  it('are saved with their code, and an older index with words only lists the same codes (read back) and words', async () => {
    const dir = makeBrokenLibrary()
    dirs.push(dir)
    const fromStore = unreadable((await (await openLibrary(dir)).list({ includeLegacy: true })).errors)
    expect(fromStore.length).toBe(6)
    expect(fromStore.every((e) => e.messageCode)).toBe(true)

    const current = await savedListing(dir, false)
    expect(current.file.includes('"messageCode":"parse.no_front_matter"')).toBe(true)
    expect(current.errors).toEqual(fromStore)

    const old = await savedListing(dir, true)
    expect(old.file.includes('"messageCode"')).toBe(false)
    expect(old.file.includes('no front matter: the file must start with a line')).toBe(true)
    // words carry no types: a number read back from them (a YAML error's line and column) is its digits
    expect(old.errors).toEqual(fromStore.map(numbersAsDigits))
    expect(old.errors.find((e) => e.path === 'skill_2.md')!.params).toMatchObject({ line: '4', column: '1' })
  })

  it('keeps words nobody coded as they are, without a code', async () => {
    const { reasonFromCache } = await import('../../src/shared/coded-reason')
    expect(reasonFromCache('some reason of a newer build')).toEqual({ reason: 'some reason of a newer build' })
    expect(reasonFromCache('{"reason": not json')).toEqual({ reason: '{"reason": not json' })
    expect(reasonFromCache('cannot read: EACCES')).toEqual({ reason: 'cannot read: EACCES', messageCode: 'load.cannot_read', params: { detail: 'EACCES' } })
  })
})
