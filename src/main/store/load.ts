/**
 * Reading one skill file into a `Skill`: opened without following links (a FIFO never blocks us), size-capped,
 * strict UTF-8, parsed; the content hash computed lazily. Shared by the store's listing and the search index.
 */
import { hash as hashOneShot } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { LoadError, Skill } from '../../shared/types'
import { derivedSkillId } from './paths'
import { decodeSkillBytes, parseSkillText } from './skill-file'
import { skillFromParts } from './skill-meta'
import type { Candidate } from './walk'

/** Skill files larger than this are reported, not read. */
export const MAX_SKILL_FILE_BYTES = 8 * 1024 * 1024

export type LoadResult = { ok: true; skill: Skill } | { ok: false; reason: string }

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
  const text = decoded.text
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

/** A reused read buffer: one allocation for all files of a listing instead of one per file. */
let readBuffer = Buffer.allocUnsafe(256 * 1024)

/** Reads `size` bytes of an open file (fewer when it shrank meanwhile; a later stat catches the change). */
function readWhole(fd: number, size: number): Uint8Array {
  if (readBuffer.length < size) readBuffer = Buffer.allocUnsafe(Math.max(size, readBuffer.length * 2))
  let got = 0
  while (got < size) {
    const n = fs.readSync(fd, readBuffer, got, size - got, got)
    if (n === 0) break
    got += n
  }
  return readBuffer.subarray(0, got)
}

/**
 * Opens, stats (through the descriptor) and parses one skill file. Synchronous on purpose: promise-based calls
 * cost several thread-pool hops per file, which made 10k files take seconds of CPU; callers batch and yield.
 * `stat` is absent when the file could not be opened or read (nothing to cache).
 */
export function loadSkillFile(c: Candidate, onBytes?: (bytes: Uint8Array) => void): { stat?: fs.Stats; result: LoadResult } {
  // O_NOFOLLOW refuses a file swapped for a symlink; O_NONBLOCK keeps a FIFO named like a skill from hanging us.
  let fd: number
  try {
    fd = fs.openSync(c.abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ELOOP') return { result: { ok: false, reason: 'symbolic link: skipped (links are never followed)' } }
    return { result: { ok: false, reason: `cannot read: ${code ?? (err as Error).message}` } }
  }
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile()) return { stat: st, result: { ok: false, reason: 'not a regular file' } }
    if (st.size > MAX_SKILL_FILE_BYTES) return { stat: st, result: { ok: false, reason: `file is larger than ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MB` } }
    const bytes = readWhole(fd, st.size)
    onBytes?.(bytes)
    return { stat: st, result: parseSkillAt(bytes, c, st.mtimeMs) }
  } catch (err) {
    return { result: { ok: false, reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` } }
  } finally {
    fs.closeSync(fd)
  }
}

/** The errors a listing reports for active skill files sharing one skill_id (id → their paths). Pure. */
export function duplicateIdErrors(duplicates: ReadonlyMap<string, readonly string[]>): LoadError[] {
  const errors: LoadError[] = []
  for (const [id, paths] of duplicates) {
    for (const p of paths) {
      const others = paths.filter((o) => o !== p).join(', ')
      errors.push({ path: p, reason: `duplicate skill_id ${id}: also used by ${others}; give one of them a new id (changes by this id are refused until then)`, kind: 'duplicate_id' })
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
