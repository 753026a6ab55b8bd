/**
 * The saved search index keeps why a file does not load with its code (reasonForCache); an index an older build
 * saved holds the words only, and still lists: the code read back through the table, the same as a fresh listing.
 * Those reasons are kept while their files' stats are unchanged, so an index saved under another reasons version
 * (CACHED_REASONS_VERSION; an older build: none) has its files that do not load read again — an upgrade's better
 * words are shown at once — and the version is pinned to what the reasons say.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { LoadError } from '../../src/shared/types'
import type * as CodedReason from '../../src/shared/coded-reason'
import { CACHED_REASONS_VERSION } from '../../src/shared/coded-reason'
import { MESSAGE_TEMPLATES } from '../../src/shared/error-codes'
import { loadSearchIndex, searchDeltaFile, searchIndexFile } from '../../src/main/search/open'
import { LibrarySearch } from '../../src/main/search/library-search'
import { openLibrary } from '../../src/main/store/library'
import { makeBrokenLibrary } from '../store/broken-library'

/**
 * While `build` is set, the index is saved as an older build saved it: each reason's words only (`words`: what that
 * build said), and no reasons version.
 */
const older = vi.hoisted(() => ({ build: false, words: (reason: string): string => reason }))
vi.mock('../../src/shared/coded-reason', async (importOriginal) => {
  const real = await importOriginal<typeof CodedReason>()
  return {
    ...real,
    reasonForCache: (why: { reason: string }) => (older.build ? older.words(why.reason) : real.reasonForCache(why as never)),
    get CACHED_REASONS_VERSION() {
      return older.build ? undefined : real.CACHED_REASONS_VERSION
    }
  }
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
    // (a loaded skill's load_warnings carry their codes in any build since version 3: only the reasons' are looked at)
    expect(old.file.includes('"messageCode":"parse.')).toBe(false)
    expect(old.file.includes('no front matter: the file must start with a line')).toBe(true)
    // words carry no types: a number read back from them (a YAML error's line and column) is its digits
    expect(old.errors).toEqual(fromStore.map(numbersAsDigits))
    expect(old.errors.find((e) => e.path === 'skill_2.md')!.params).toMatchObject({ line: '4', column: '1' })
  })

  it('are read again when an older build saved them: its words do not outlive an upgrade', async () => {
    const dir = makeBrokenLibrary()
    dirs.push(dir)
    const fromStore = unreadable((await (await openLibrary(dir)).list({ includeLegacy: true })).errors)
    expect(fromStore.length).toBe(6)
    // What a build before 3ea66b3 said of a YAML syntax error: not where it is.
    older.words = (reason) => reason.replace(/ \(at line \d+, column \d+\)$/, '')
    try {
      const old = await savedListing(dir, true)
      expect(old.errors.find((e) => e.path === 'skill_2.md')!.reason).toBe('invalid YAML: a duplicate key (each key may appear once)')
      // and a delta that build saved after one of those files was written again (same words, a new stat)
      const file7 = path.join(dir, 'skill_7.md')
      fs.writeFileSync(file7, fs.readFileSync(file7))
      fs.utimesSync(file7, new Date(), new Date(Date.now() + 5000))
      older.build = true
      try {
        expect((await LibrarySearch.open(dir)).changed).toBe(1)
      } finally {
        older.build = false
      }
      expect(fs.existsSync(searchDeltaFile(dir))).toBe(true)
    } finally {
      older.words = (reason) => reason
    }

    // This build: every file that does not load is read again (the older delta passed over), and, the older index
    // being from before version 3 (no load_warnings in its skills), every skill too; no other file.
    const upgraded = await LibrarySearch.open(dir)
    upgraded.index.closeFile()
    const loaded = (await (await openLibrary(dir)).list({ includeLegacy: true })).skills.length
    expect(upgraded.changed).toBe(fromStore.length + loaded)
    // What it saved (a delta beside the older index) lists this build's words and codes, and is used as it is.
    const saved = loadSearchIndex(dir)
    expect(unreadable(saved.listing(true).errors)).toEqual(fromStore)
    saved.closeFile()
    const next = await LibrarySearch.open(dir)
    expect(next.changed).toBe(0)
    expect(unreadable(next.index.listing(true).errors)).toEqual(fromStore)
    next.index.closeFile()
  })

  it('pins CACHED_REASONS_VERSION: when what a load reason says changes, bump it so saved indexes read those files again', async () => {
    const dir = makeBrokenLibrary()
    dirs.push(dir)
    const reasons = unreadable((await (await openLibrary(dir)).list({ includeLegacy: true })).errors).map((e) => JSON.stringify(e).split(dir).join('<library>'))
    const texts = Object.entries(MESSAGE_TEMPLATES).filter(([code]) => /^(load|parse|yaml)\./.test(code))
    const fingerprint = crypto.createHash('sha256').update(JSON.stringify({ reasons, texts })).digest('hex').slice(0, 16)
    // A new fingerprint with the same version fails here: bump the version in shared/coded-reason.ts, then pin both.
    expect({ version: CACHED_REASONS_VERSION, fingerprint }).toEqual({ version: 5, fingerprint: '8fef69dda05ea024' })
  })

  it('keeps words nobody coded as they are, without a code', async () => {
    const { reasonFromCache } = await import('../../src/shared/coded-reason')
    expect(reasonFromCache('some reason of a newer build')).toEqual({ reason: 'some reason of a newer build' })
    expect(reasonFromCache('{"reason": not json')).toEqual({ reason: '{"reason": not json' })
    expect(reasonFromCache('cannot read: EACCES')).toEqual({ reason: 'cannot read: EACCES', messageCode: 'load.cannot_read', params: { detail: 'EACCES' } })
  })
})
