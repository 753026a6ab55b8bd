/**
 * Where a library's search index is saved and how: loaded from the cache folder with the changes saved since, saved
 * back as a whole or as a small delta; and a listing made from a current index. `LibrarySearch` (library-search.ts)
 * is the way in: nothing outside search/ imports this file.
 */
import { isLegacyPath } from '../../shared/legacy-paths'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { LoadError } from '../../shared/types'
import { LedgerTail, withPendingUse } from '../store/ledger'
import { duplicateIdErrors, duplicateIds } from '../store/load'
import { searchCacheDir } from './daemon/address'
import { writeCacheFileSync } from '../cache-files'
import { IndexFile } from './codec'
import { encodeDelta, readDeltaChanges } from './delta'
import { parseListed, SearchIndex, type ListedText } from './search-index'

/** The cache file of a library's search index (a hash of its real path: libraries never collide). */
export function searchIndexFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = crypto.createHash('sha256').update(root).digest('hex').slice(0, 20)
  return path.join(searchCacheDir(env), `${key}.idx`)
}

/** The file of changes since the saved index (delta.ts), beside it. */
export function searchDeltaFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return searchIndexFile(root, env).replace(/\.idx$/, '.delta')
}

/**
 * The saved index of `root` with the changes saved since, or an empty one when there is none (or it is unusable: it
 * is then rebuilt). `ranking: false` (a listing) leaves the ranking arrays to be read when first needed.
 */
export function loadSearchIndex(root: string, env: NodeJS.ProcessEnv = process.env, { ranking = true } = {}): SearchIndex {
  const index = SearchIndex.fromFile(searchIndexFile(root, env), root)
  if (!index) return new SearchIndex(root)
  // A delta of another saved index (replaced by some process since) is passed over: its files are read again.
  const deltaFile = IndexFile.open(searchDeltaFile(root, env))
  let ranked = false
  if (!deltaFile && !ranking) {
    index.deferSavedRanking()
    return index
  }
  if (deltaFile) {
    const changes = readDeltaChanges(deltaFile)
    ranked = changes !== null && index.applyDelta(changes, deltaFile) === 'ranked'
    deltaFile.close()
  }
  if (ranked || index.loadSavedRanking()) return index
  index.closeFile()
  return new SearchIndex(root)
}

/** The name of the index saved in `file` now (null: none). */
function savedNonce(file: string): string | null {
  const f = IndexFile.open(file)
  f?.close()
  return f?.header.nonce ?? null
}

/**
 * Saves the index for the next process. A few changed skills since the saved index are written as a small delta
 * beside it; more (or a saved index some other process has replaced meanwhile) rewrite the whole index. Not
 * fsynced — it is derived data, every array is validated on load and every entry is checked against the files.
 * A cache folder that cannot be written only costs speed.
 */
export function saveSearchIndex(index: SearchIndex, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = searchIndexFile(index.root, env)
  try {
    const delta = index.baseNonce !== null && savedNonce(file) === index.baseNonce ? index.deltaSinceBase() : null
    if (delta) {
      writeCacheFileSync(searchDeltaFile(index.root, env), encodeDelta(delta.delta, delta.ranking, delta.docs, delta.vocab))
      index.dirty = false
      return true
    }
    const nonce = crypto.randomBytes(12).toString('hex')
    writeCacheFileSync(file, index.toBuffer(nonce))
    index.markSaved(nonce)
    // The old delta named the replaced index: it would be passed over; gone, it costs no read.
    fs.rmSync(searchDeltaFile(index.root, env), { force: true })
    return true
  } catch {
    return false
  }
}

/** The listing of a current index (`skipped`: what its last walk passed over), with the ledger's unfolded uses. */
export function listingOf(index: SearchIndex, skipped: readonly LoadError[], includeLegacy: boolean): { skills: ListedText[]; errors: LoadError[] } {
  const all = index.listingTexts(true)
  const ledger = new LedgerTail(index.root)
  ledger.poll()
  const uses = ledger.uses()
  if (uses.size > 0) {
    // The file that carries an id's uses, as the store decides: active over legacy, else the first by path.
    const carrier = new Map<string, string>()
    for (const s of all.skills) {
      const prev = carrier.get(s.skill_id)
      if (!prev || (!s.legacy && isLegacyPath(prev))) carrier.set(s.skill_id, s.path)
    }
    for (const s of all.skills) {
      const use = uses.get(s.skill_id)
      if (!use || carrier.get(s.skill_id) !== s.path) continue
      const skill = parseListed(s)
      s.json = JSON.stringify(Object.assign(skill, withPendingUse(skill, use)))
    }
  }
  const errors = [...skipped, ...all.errors, ...duplicateIdErrors(duplicateIds(all.skills))]
  return { skills: includeLegacy ? all.skills : all.skills.filter((s) => !s.legacy), errors }
}
