/**
 * `skills.lock` at the library's root: per skill installed from a git source, the source, the ref asked for, the
 * commit the files came from, the folder inside the repository and a hash of the upstream files. It is JSON with
 * a fixed key order and skills sorted by name, so it diffs cleanly and is made to be committed; `skillbench
 * install --locked` installs exactly what it says. Written only under the library lock, atomically; a lock file
 * that does not parse is reported and never overwritten.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { readContainedText, writeContained } from './contained'
import { withLibraryLock } from './lock'
import { StoreError } from './types'
import { coded, type CodedText } from '../../shared/error-codes'

export const SKILLS_LOCK_FILE = 'skills.lock'
export const SKILLS_LOCK_VERSION = 1

export interface LockEntry {
  /** The repository as recorded in the skill's provenance (no credentials). */
  source: string
  /** The branch, tag or commit asked for. */
  ref: string
  /** The full commit the files came from. */
  commit: string
  /** The skill's folder inside the repository ('' = its root). */
  path: string
  /** `sha256:` of the upstream files (see `filesHash`). */
  hash: string
  /**
   * The high audit findings a person allowed in (`install --allow-risk`, an accepted high-risk update), and who:
   * `install --locked` on another machine installs the skill with this record instead of holding it back, as long
   * as it covers every high finding of the locked files.
   */
  risk?: LockRisk
  /** The skill was retired (moved to legacy/) in this library: `install --locked` leaves it out; restore clears it. */
  retired?: true
}

/** The allowance of an installed skill's high findings (the shape of `metadata.skillbench.source.risk`). */
export interface LockRisk {
  allowed_by: string
  allowed_at: string
  findings: { file: string; line: number; rule: string; severity: string; message: string }[]
}

export interface SkillsLock {
  /** Library folder name → entry. */
  skills: Record<string, LockEntry>
}

/** One file of a skill as the repository has it (SKILL.md included, as upstream wrote it). */
export interface HashedFile {
  rel: string
  bytes: Uint8Array
  executable: boolean
}

/**
 * The hash of a skill's files: sha256 over one line per file, sorted by path: `path NUL x|- NUL sha256(bytes)`.
 * The SKILL.md is hashed as upstream wrote it (the provenance install adds is not part of it), so the same
 * commit gives the same hash in every library. Pure.
 */
export function filesHash(files: readonly HashedFile[]): string {
  const lines = [...files]
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    .map((f) => `${f.rel}\0${f.executable ? 'x' : '-'}\0${createHash('sha256').update(f.bytes).digest('hex')}\n`)
  return `sha256:${createHash('sha256').update(lines.join('')).digest('hex')}`
}

const HASH = /^sha256:[0-9a-f]{64}$/
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** Parses the lock's text; throws StoreError('invalid_input') saying what is wrong and where. Pure. */
export function parseSkillsLock(text: string): SkillsLock {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new StoreError('invalid_input', coded('lockfile.not_json', { file: SKILLS_LOCK_FILE, detail: (err as Error).message }))
  }
  const bad = (why: CodedText): StoreError => new StoreError('invalid_input', coded('lockfile.problem', { file: SKILLS_LOCK_FILE, why }))
  const badEntry = (name: string, why: CodedText): StoreError => bad(coded('lockfile.entry_problem', { name, why }))
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad(coded('lockfile.not_object'))
  const obj = raw as Record<string, unknown>
  if (obj.version !== SKILLS_LOCK_VERSION) throw bad(coded('lockfile.bad_version', { version: String(JSON.stringify(obj.version)), expected: SKILLS_LOCK_VERSION }))
  const skills = obj.skills
  if (typeof skills !== 'object' || skills === null || Array.isArray(skills)) throw bad(coded('lockfile.skills_not_object'))
  const out: Record<string, LockEntry> = Object.create(null) as Record<string, LockEntry>
  for (const [name, e] of Object.entries(skills as Record<string, unknown>)) {
    if (!NAME.test(name)) throw bad(coded('lockfile.bad_name', { name: JSON.stringify(name) }))
    if (typeof e !== 'object' || e === null || Array.isArray(e)) throw badEntry(name, coded('lockfile.not_object'))
    const r = e as Record<string, unknown>
    for (const k of ['source', 'ref', 'commit', 'path', 'hash'] as const) if (typeof r[k] !== 'string') throw badEntry(name, coded('lockfile.field_missing', { field: k }))
    const entry = { source: r.source, ref: r.ref, commit: r.commit, path: r.path, hash: r.hash } as LockEntry
    if (r.risk !== undefined) entry.risk = parseLockRisk(r.risk, (why) => bad(coded('lockfile.risk_problem', { name, why })))
    if (r.retired !== undefined) {
      if (r.retired !== true) throw badEntry(name, coded('lockfile.retired_true'))
      entry.retired = true
    }
    if (!COMMIT.test(entry.commit)) throw badEntry(name, coded('lockfile.bad_commit', { commit: JSON.stringify(entry.commit) }))
    if (!HASH.test(entry.hash)) throw badEntry(name, coded('lockfile.bad_hash', { hash: JSON.stringify(entry.hash) }))
    if (entry.source === '' || entry.ref === '') throw badEntry(name, coded('lockfile.empty_source'))
    if (entry.path.startsWith('/') || entry.path.split('/').includes('..')) throw badEntry(name, coded('lockfile.bad_path', { path: JSON.stringify(entry.path) }))
    out[name] = entry
  }
  return { skills: out }
}

/** A risk record as the lock has it; throws (through `bad`) saying what is wrong. Pure. */
export function parseLockRisk(v: unknown, bad: (why: CodedText) => Error): LockRisk {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(coded('lockfile.risk_not_object'))
  const r = v as Record<string, unknown>
  if (typeof r.allowed_by !== 'string' || typeof r.allowed_at !== 'string') throw bad(coded('lockfile.risk_allowed'))
  if (!Array.isArray(r.findings)) throw bad(coded('lockfile.risk_findings'))
  const findings = r.findings.map((f, i) => {
    const x = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>
    if (typeof x.file !== 'string' || typeof x.line !== 'number' || typeof x.rule !== 'string' || typeof x.severity !== 'string' || typeof x.message !== 'string') {
      throw bad(coded('lockfile.risk_finding', { n: i + 1 }))
    }
    return { file: x.file, line: x.line, rule: x.rule, severity: x.severity, message: x.message }
  })
  return { allowed_by: r.allowed_by, allowed_at: r.allowed_at, findings }
}

/** An entry with its keys in the lock's fixed order (the optional ones only when set). Pure. */
function orderedEntry(e: LockEntry): LockEntry {
  return {
    source: e.source,
    ref: e.ref,
    commit: e.commit,
    path: e.path,
    hash: e.hash,
    ...(e.risk ? { risk: { allowed_by: e.risk.allowed_by, allowed_at: e.risk.allowed_at, findings: e.risk.findings.map((f) => ({ file: f.file, line: f.line, rule: f.rule, severity: f.severity, message: f.message })) } } : {}),
    ...(e.retired ? { retired: true as const } : {})
  }
}

/** The lock's text: fixed key order, skills sorted by name, one key per line, a final newline. Pure. */
export function serializeSkillsLock(lock: SkillsLock): string {
  const skills: Record<string, LockEntry> = {}
  for (const name of Object.keys(lock.skills).sort()) skills[name] = orderedEntry(lock.skills[name]!)
  return `${JSON.stringify({ version: SKILLS_LOCK_VERSION, skills }, null, 2)}\n`
}

/** The library's lock, or null when it has none (throws when it does not parse). */
export async function readSkillsLock(root: string): Promise<SkillsLock | null> {
  const text = await readContainedText(root, SKILLS_LOCK_FILE, { maxBytes: 16 * 1024 * 1024 })
  return text === null ? null : parseSkillsLock(text)
}

/**
 * Changes entries of the library's lock under the library lock (re-entered when the caller holds it) and writes it
 * atomically when something changed: `set` replaces or adds, `null` removes. A lock that does not parse is left as
 * it is and the error thrown. Returns the lock as written.
 */
export async function changeSkillsLock(root: string, changes: ReadonlyMap<string, LockEntry | null>): Promise<SkillsLock> {
  return withLibraryLock(
    root,
    async () => {
      const before = await readContainedText(root, SKILLS_LOCK_FILE, { maxBytes: 16 * 1024 * 1024 })
      const lock = before === null ? { skills: {} as Record<string, LockEntry> } : parseSkillsLock(before)
      for (const [name, entry] of changes) {
        if (entry === null) delete lock.skills[name]
        else lock.skills[name] = entry
      }
      const text = serializeSkillsLock(lock)
      if (text !== before && (before !== null || Object.keys(lock.skills).length > 0)) await writeContained(root, SKILLS_LOCK_FILE, text)
      return lock
    },
    { purpose: `writing ${SKILLS_LOCK_FILE}` }
  )
}

/** The proposal evidence an `update` carries for the lock: the entry it will set, and the one it replaces. */
export interface UpdateLockEvidence {
  name: string
  after: LockEntry
  before: LockEntry | null
}

/** Reads `evidence.lock` of an update proposal (null when absent or malformed). Pure. */
export function updateLockEvidence(evidence: Record<string, unknown>): UpdateLockEvidence | null {
  const l = evidence.lock
  if (typeof l !== 'object' || l === null) return null
  const r = l as Record<string, unknown>
  const entry = (v: unknown): LockEntry | null => {
    if (typeof v !== 'object' || v === null) return null
    const e = v as Record<string, unknown>
    if (![e.source, e.ref, e.commit, e.path, e.hash].every((x) => typeof x === 'string')) return null
    const out = { source: e.source, ref: e.ref, commit: e.commit, path: e.path, hash: e.hash } as LockEntry
    try {
      if (e.risk !== undefined) out.risk = parseLockRisk(e.risk, (why) => new Error(why.text))
    } catch {
      return null
    }
    return out
  }
  const after = entry(r.after)
  if (typeof r.name !== 'string' || !NAME.test(r.name) || !after) return null
  return { name: r.name, after, before: entry(r.before) }
}

/**
 * Keeps the lock in step with an accepted (or undone) `update` proposal: the entry moves to the new commit on
 * accept, and back on undo, only when it still says what the proposal replaced (a lock changed since is left as
 * the person made it). Call under the library lock, right after the transaction.
 */
export async function lockAfterUpdate(root: string, evidence: Record<string, unknown>, direction: 'accept' | 'undo'): Promise<void> {
  const l = updateLockEvidence(evidence)
  if (!l) return
  const current = (await readSkillsLock(root))?.skills[l.name] ?? null
  const [from, to] = direction === 'accept' ? [l.before, l.after] : [l.after, l.before]
  if (from !== null && current !== null && current.commit !== from.commit) return
  await changeSkillsLock(root, new Map([[l.name, to]]))
}

/** Folders retired skills are moved to (the store's legacy/, and `.skillbench/legacy/` of a SKILL.md library). */
const LEGACY_DIRS = ['legacy', '.skillbench/legacy']

/** Where the library has a retired copy of the skill folder `name` (`name`, or `name_<time>` when it was taken). */
function retiredCopyOf(root: string, name: string): boolean {
  // lock names are [A-Za-z0-9._-]: only the dot needs escaping
  const again = new RegExp(`^${name.replace(/\./g, '\\.')}_\\d+(?:_\\d+)?$`)
  return LEGACY_DIRS.some((dir) => {
    const abs = path.join(root, ...dir.split('/'))
    let names: string[]
    try {
      names = fs.readdirSync(abs)
    } catch {
      return false
    }
    return names.some((n) => (n === name || again.test(n)) && fs.lstatSync(path.join(abs, n, 'SKILL.md'), { throwIfNoEntry: false })?.isFile() === true)
  })
}

/**
 * Keeps the lock's `retired` marks in step with the library after a skill moved (retire, restore, accept, undo):
 * an entry whose folder left the top level and has a retired copy in legacy/ is marked retired; one whose folder is
 * back is unmarked. An entry whose skill is simply absent (a machine that has not run `install --locked` yet) is
 * left as it is. Under the library lock (re-entered when the caller holds it); writes only when a mark changed.
 */
export async function reconcileLockRetired(root: string): Promise<void> {
  await withLibraryLock(
    root,
    async () => {
      const text = await readContainedText(root, SKILLS_LOCK_FILE, { maxBytes: 16 * 1024 * 1024 }).catch(() => null)
      if (text === null) return
      let lock: SkillsLock
      try {
        lock = parseSkillsLock(text)
      } catch {
        return // a lock that does not parse is reported by the commands that read it, never rewritten here
      }
      const changes = new Map<string, LockEntry>()
      for (const [name, e] of Object.entries(lock.skills)) {
        const live = fs.lstatSync(path.join(root, name, 'SKILL.md'), { throwIfNoEntry: false })?.isFile() === true
        if (live && e.retired) changes.set(name, { ...e, retired: undefined })
        else if (!live && !e.retired && retiredCopyOf(root, name)) changes.set(name, { ...e, retired: true })
      }
      if (changes.size > 0) await changeSkillsLock(root, changes)
    },
    { purpose: `marking retired skills in ${SKILLS_LOCK_FILE}` }
  )
}
