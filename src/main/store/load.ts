/**
 * Reading one skill file into a `Skill`: opened without following links (a FIFO never blocks us), size-capped,
 * strict UTF-8, parsed; the content hash computed lazily. Shared by the store's listing and the search index.
 */
import { hash as hashOneShot } from 'node:crypto'
import { isAscii } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'
import type { LoadError, Skill } from '../../shared/types'
import { derivedSkillId } from './paths'
import { coded } from '../../shared/error-codes'
import { loadErrorOf } from '../../shared/coded-reason'
import { decodeSkillBytes, failed, parseSkillText, type Failed } from './skill-file'
import { skillFromParts } from './skill-meta'
import type { Candidate } from './walk'

/** Skill files larger than this are reported, not read. */
export const MAX_SKILL_FILE_BYTES = 8 * 1024 * 1024

export type LoadResult = { ok: true; skill: Skill } | Failed

/** Why a file could not be read: the system's error code (EACCES…), else its message. */
export function cannotRead(err: unknown): Failed {
  return failed(coded('load.cannot_read', { detail: (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? String(err) }))
}

/** sha256 hex of bytes (a string counts as its UTF-8 bytes): the base for conflict detection. */
export function hashBytes(bytes: Uint8Array | string): string {
  return hashOneShot('sha256', bytes, 'hex')
}

/** Where a lazily hashed skill keeps its text (non-enumerable: JSON, spreads and structured clones never see it). */
const HASH_SOURCE = Symbol('skillbench.hashSource')

interface HashSource {
  text: string
  hash?: string
}

/** The one getter all skills share (a per-skill closure would push every skill object into slow dictionary mode). */
function lazyHashGetter(this: { [HASH_SOURCE]: HashSource }): string {
  const src = this[HASH_SOURCE]
  return (src.hash ??= hashOneShot('sha256', src.text, 'hex'))
}

const LAZY_HASH: PropertyDescriptor = { enumerable: true, get: lazyHashGetter }

/**
 * Adds `hash` to a skill being built as an enumerable accessor computed on first read from `text` (JSON, spreads
 * and structured clones see a plain string), plus its hidden source. Added in key order, never redefined, so all
 * skills of one layout share one fast object shape.
 */
function defineLazyHash(skill: Skill, text: string): void {
  Object.defineProperty(skill, 'hash', LAZY_HASH)
  Object.defineProperty(skill, HASH_SOURCE, { value: { text } satisfies HashSource })
}

/**
 * The decoded text of the file a skill was parsed from (the text its `hash` is of), when the skill came from this
 * store (a listing, get, create or update); undefined for a skill object built elsewhere (or a copy with uses added).
 * Lets a caller that needs every file's text (curation's before/after texts) use the listing's own read instead of
 * a second one.
 */
export function loadedSkillText(skill: Skill): string | undefined {
  return (skill as Skill & { [HASH_SOURCE]?: HashSource })[HASH_SOURCE]?.text
}

export function freezeSkill(skill: Skill): Skill {
  Object.freeze(skill.task_directories)
  return Object.freeze(skill)
}

/**
 * Parses file bytes (which may live in a shared read buffer: nothing here keeps them). The content hash is
 * computed on first use from the decoded text: strict UTF-8 round-trips exactly, so it equals the bytes' hash,
 * and a listing of 10k skills does not pay for 10k hashes nobody reads.
 */
export function parseSkillAt(bytes: Uint8Array, c: Pick<Candidate, 'rel' | 'format' | 'legacy'>, mtimeMs: number): LoadResult {
  const decoded = decodeSkillBytes(bytes)
  if (!decoded.ok) return decoded
  return parseDecodedSkill(decoded.text, c, mtimeMs)
}

/** parseSkillAt's second half: the file's text already decoded (strictly). */
function parseDecodedSkill(text: string, c: Pick<Candidate, 'rel' | 'format' | 'legacy'>, mtimeMs: number): LoadResult {
  const parsed = parseSkillText(text)
  if (!parsed.ok) return parsed
  let fallbackId: string | undefined
  if (c.format === 'skill-md') {
    const relDir = path.posix.dirname(c.rel)
    fallbackId = derivedSkillId(relDir === '.' ? '' : relDir)
  }
  const defineHash = (skill: Skill): void => defineLazyHash(skill, text)
  const res = skillFromParts(parsed.file, { path: c.rel, format: c.format, legacy: c.legacy, hash: '', mtimeMs, fallbackId, defineHash })
  if (!res.ok) return res
  return { ok: true, skill: freezeSkill(res.skill) }
}

/**
 * Files are read into one buffer, a batch of them at a time, and the plain ASCII ones decoded together as one
 * Latin-1 string (the same characters as UTF-8 for ASCII bytes), each file's text a slice of it. A batch over ~1 MB
 * becomes a string outside V8's heap, which the garbage collector neither copies nor marks through: a listing of
 * 20,000 skills took ~10 % less time (docs/BENCH.md), 50 MB less heap. A slice keeps its batch's string alive: a
 * process that re-reads edited files keeps a batch's text until every skill read in it is gone (at worst the
 * library's text once more). Files with other bytes are checked and decoded one by one (decodeSkillBytes).
 */
const BATCH_BYTES = 4 * 1024 * 1024

/** The reused read buffer (grown to the largest batch, at most BATCH_BYTES or one file of MAX_SKILL_FILE_BYTES). */
let readBuffer = Buffer.allocUnsafe(1024 * 1024)

export interface LoadedFile {
  /** Absent when the file could not be opened or read (nothing to cache). */
  stat?: fs.Stats
  result: LoadResult
}

/** A file read into readBuffer, waiting to be decoded with the rest of its batch. */
interface PendingFile {
  at: number
  start: number
  size: number
  stat: fs.Stats
}

/** Reads `size` bytes of an open file into readBuffer at `start` (fewer when it shrank meanwhile; a later stat catches the change). */
function readInto(fd: number, start: number, size: number): number {
  if (readBuffer.length < start + size) {
    const next = Buffer.allocUnsafe(Math.max(start + size, readBuffer.length * 2))
    readBuffer.copy(next, 0, 0, start)
    readBuffer = next
  }
  let got = 0
  while (got < size) {
    const n = fs.readSync(fd, readBuffer, start + got, size - got, got)
    if (n === 0) break
    got += n
  }
  return got
}

/** Decodes and parses the batch's files (their bytes in readBuffer) into out[]. */
function parseBatch(cs: readonly Candidate[], pending: readonly PendingFile[], out: LoadedFile[]): void {
  const ascii = pending.map((p) => isAscii(readBuffer.subarray(p.start, p.start + p.size)))
  const last = pending[pending.length - 1]
  const whole = last && ascii.includes(true) ? readBuffer.toString('latin1', 0, last.start + last.size) : ''
  pending.forEach((p, k) => {
    const c = cs[p.at] as Candidate
    try {
      const result = ascii[k] ? parseDecodedSkill(whole.substring(p.start, p.start + p.size), c, p.stat.mtimeMs) : parseSkillAt(readBuffer.subarray(p.start, p.start + p.size), c, p.stat.mtimeMs)
      out[p.at] = { stat: p.stat, result }
    } catch (err) {
      out[p.at] = { result: failed(coded('load.cannot_read', { detail: (err as Error).message })) }
    }
  })
}

/**
 * Opens, stats (through the descriptor) and parses skill files, in order. Synchronous on purpose: promise-based
 * calls cost several thread-pool hops per file, which made 10k files take seconds of CPU; callers batch and yield.
 */
export function loadSkillFiles(cs: readonly Candidate[]): LoadedFile[] {
  const out = new Array<LoadedFile>(cs.length)
  let pending: PendingFile[] = []
  let end = 0
  for (let at = 0; at < cs.length; at++) {
    const c = cs[at] as Candidate
    // O_NOFOLLOW refuses a file swapped for a symlink; O_NONBLOCK keeps a FIFO named like a skill from hanging us.
    let fd: number
    try {
      fd = fs.openSync(c.abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      out[at] = { result: code === 'ELOOP' ? failed(coded('load.symlink')) : cannotRead(err) }
      continue
    }
    try {
      const st = fs.fstatSync(fd)
      if (!st.isFile()) out[at] = { stat: st, result: failed(coded('copy.not_regular')) }
      else if (st.size > MAX_SKILL_FILE_BYTES) out[at] = { stat: st, result: failed(coded('load.too_large', { mb: MAX_SKILL_FILE_BYTES / 1024 / 1024 })) }
      else {
        if (end > 0 && end + st.size > BATCH_BYTES) {
          // The batch is full: decode it before its buffer is reused.
          parseBatch(cs, pending, out)
          pending = []
          end = 0
        }
        const size = readInto(fd, end, st.size)
        pending.push({ at, start: end, size, stat: st })
        end += size
      }
    } catch (err) {
      out[at] = { result: cannotRead(err) }
    } finally {
      fs.closeSync(fd)
    }
  }
  parseBatch(cs, pending, out)
  return out
}

/** One skill file, as loadSkillFiles reads it. */
export function loadSkillFile(c: Candidate): LoadedFile {
  return loadSkillFiles([c])[0] as LoadedFile
}

/** The errors a listing reports for active skill files sharing one skill_id (id → their paths). Pure. */
export function duplicateIdErrors(duplicates: ReadonlyMap<string, readonly string[]>): LoadError[] {
  const errors: LoadError[] = []
  for (const [id, paths] of duplicates) {
    for (const p of paths) {
      const others = paths.filter((o) => o !== p).join(', ')
      errors.push(loadErrorOf(p, failed(coded('load.duplicate_id', { id, paths: others })), 'duplicate_id'))
    }
  }
  return errors
}

/** Active skills' ids found in more than one file: id → paths. Pure. */
export function duplicateIds(skills: readonly { skill_id: string; path: string; legacy: boolean }[]): Map<string, string[]> {
  // Two passes: the paths are gathered only for the ids seen twice (a listing of 10,000 has none, usually).
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const s of skills) {
    if (s.legacy) continue
    if (seen.has(s.skill_id)) twice.add(s.skill_id)
    else seen.add(s.skill_id)
  }
  const byId = new Map<string, string[]>()
  if (twice.size === 0) return byId
  for (const s of skills) {
    if (s.legacy || !twice.has(s.skill_id)) continue
    const list = byId.get(s.skill_id)
    if (list) list.push(s.path)
    else byId.set(s.skill_id, [s.path])
  }
  return byId
}
