/**
 * Guards for every id and path that reaches the store from a user, an IPC call or an LLM.
 *
 * Skill ids (both formats): `^[0-9]{1,20}$`. AGIAgent ids are unix-second timestamps; SKILL.md skills
 * get a 16-digit id (see skill-meta.ts), so the two never collide and no id can hold a separator.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { coded, type CodedText } from '../../shared/error-codes'
import { activePathOf } from '../../shared/legacy-paths'
import { StoreError } from './types'

export const SKILL_ID_PATTERN = /^[0-9]{1,20}$/

/** True when the string is an acceptable skill id. */
export function isValidSkillId(id: unknown): boolean {
  return typeof id === 'string' && SKILL_ID_PATTERN.test(id)
}

/** Returns the id or throws StoreError('invalid_id'). */
export function assertSkillId(id: unknown): string {
  if (typeof id !== 'string' || !isValidSkillId(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 40)) : typeof id
    throw new StoreError('invalid_id', coded('skill.invalid_id', { id: shown }))
  }
  return id
}

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\..*)?$/i
const MAX_REL_PATH = 1024

/**
 * Checks a library-relative path lexically and returns it normalised (NFC, forward slashes).
 * Refuses empty, absolute, drive/UNC, backslash, NUL/control chars, `.`/`..`/empty segments,
 * Windows reserved names and segments ending in a dot or space.
 */
export function checkRelPath(rel: unknown): string {
  if (typeof rel !== 'string' || rel.length === 0) throw escape(coded('relpath.empty'), '')
  if (rel.length > MAX_REL_PATH) throw escape(coded('relpath.too_long'), rel)
  const p = rel.normalize('NFC')
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p)) throw escape(coded('relpath.control_char'), rel)
  if (p.includes('\\')) throw escape(coded('relpath.backslash'), rel)
  if (p.startsWith('/') || /^[a-zA-Z]:/.test(p)) throw escape(coded('relpath.absolute'), rel)
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.' || seg === '..') throw escape(coded('relpath.dot_segment'), rel)
    if (WINDOWS_RESERVED.test(seg)) throw escape(coded('relpath.reserved_file_name', { segment: seg }), rel)
    if (/[. ]$/.test(seg)) throw escape(coded('relpath.trailing_dot'), rel)
  }
  return p
}

function escape(why: CodedText, rel: string): StoreError {
  return new StoreError('path_escape', rel ? coded('relpath.refused_named', { path: JSON.stringify(rel.slice(0, 80)), why }) : coded('relpath.refused', { why }))
}

/** True when `child` is `root` or lies under it (compared with a trailing separator: `/lib-evil` is not in `/lib`). */
export function isInside(root: string, child: string): boolean {
  return child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep)
}

/**
 * Resolves a library-relative path inside `root` (which must already be a real path), checking the real path
 * of the deepest existing ancestor too, so a symlink inside the library cannot lead outside it.
 */
export async function resolveInside(root: string, rel: unknown): Promise<string> {
  const clean = checkRelPath(rel)
  const abs = path.resolve(root, clean)
  if (!isInside(root, abs)) throw escape(coded('relpath.leads_outside'), clean)
  // Real path of the longest existing prefix (a missing file is checked through its parent).
  let probe = abs
  for (;;) {
    try {
      const real = await fs.promises.realpath(probe)
      if (!isInside(root, real)) throw escape(coded('relpath.link_outside'), clean)
      break
    } catch (err) {
      if (err instanceof StoreError) throw err
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err
      // A dangling symlink: creating through it would land wherever it points.
      const isLink = await fs.promises.lstat(probe).then((st) => st.isSymbolicLink(), () => false)
      if (isLink) throw escape(coded('relpath.link_nowhere'), clean)
      const parent = path.dirname(probe)
      if (parent === probe || !isInside(root, parent)) throw escape(coded('relpath.leads_outside'), clean)
      probe = parent
    }
  }
  return abs
}

// Characters no file system accepts in a name, plus control characters.
// eslint-disable-next-line no-control-regex
const UNSAFE_FILE_CHARS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g

/** The part of a title that goes into a file name: Markdown heading / list markers dropped, unsafe characters removed, ≤ 20 characters. */
export function titleStem(title: string): string {
  let t = title.normalize('NFC').trim()
  t = t.replace(/^#{1,6}\s+/, '') // "## 深度反思分析"
  t = t.replace(/^(?:\d{1,3}[.)、．]|[-*+])\s*/, '') // "1. 任务完成情况", "- item"
  t = t.replace(/^\*\*(.+?)\*\*/, '$1')
  t = t.replace(UNSAFE_FILE_CHARS, '')
  t = cutStem(Array.from(t)) // 20 code points, as upstream Python slices, but never in the middle of a word
  t = t.replace(/^[\s.]+|[\s.]+$/gu, '')
  if (t === '' || WINDOWS_RESERVED.test(t)) t = t === '' ? 'untitled' : `${t}_`
  return t
}

/**
 * The first 20 code points; a Latin word cut in two is dropped ("Great, but keep in m" → "Great, but keep in"),
 * a hyphenated or snake_case one too ("Research three open-source" → "Research three", not "… open-").
 */
function cutStem(chars: string[]): string {
  if (chars.length <= 20) return chars.join('')
  const head = chars.slice(0, 20)
  const inWord = /[\p{L}\p{N}]/u
  const latin = /[A-Za-z0-9\u00c0-\u024f]/
  const joiner = /[-_'’]/
  const cutInWord = (latin.test(head[19]!) || (joiner.test(head[19]!) && latin.test(head[18] ?? ''))) && inWord.test(chars[20]!)
  if (cutInWord) {
    const space = head.lastIndexOf(' ')
    if (space >= 8) return head.slice(0, space).join('')
  }
  return head.join('')
}

/**
 * File name of an AGIAgent skill: `skill_<first 20 chars of the title>.md`, `_<skill_id>` appended on collision
 * (and a counter after that, should even that exist).
 */
export function buildSkillFileName(title: string, skillId: string, exists: (name: string) => boolean): string {
  const stem = titleStem(title)
  const plain = `skill_${stem}.md`
  if (!exists(plain)) return plain
  const withId = `skill_${stem}_${skillId}.md`
  if (!exists(withId)) return withId
  for (let n = 2; ; n++) {
    const name = `skill_${stem}_${skillId}_${n}.md`
    if (!exists(name)) return name
  }
}

/** True for names that are AGIAgent skill files. */
export function isAgiagentSkillName(name: string): boolean {
  return name.startsWith('skill_') && name.endsWith('.md') && !name.startsWith('.')
}

/**
 * The id of a SKILL.md skill that has none stored yet: 16 digits from a hash of its library-relative folder
 * (outside `legacy/` or `.skillbench/legacy/`), so it is stable across runs and never collides with a 10-digit unix-time id.
 * The first write stores it under `metadata.skillbench.skill_id`, after which moves keep it.
 */
export function derivedSkillId(relDir: string): string {
  const key = activePathOf(relDir)
  const hex = createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 15)
  const n = BigInt('0x' + hex) % 9_000_000_000_000_000n
  return (n + 1_000_000_000_000_000n).toString()
}

/**
 * Folder names a library keeps for its own bookkeeping (retired skills, backed-up code, logs): a skill may not take
 * one, or it would land among them (`legacy` would list as retired, `codes` would receive backed-up files).
 */
export const RESERVED_SKILL_NAMES: ReadonlySet<string> = new Set(['legacy', 'codes', 'logs'])

/** Why `name` cannot be a skill folder's name (null when it can); compared without case, as some file systems do. */
export function reservedNameProblem(name: string): CodedText | null {
  const lower = name.toLowerCase()
  if (!RESERVED_SKILL_NAMES.has(lower)) return null
  const what = coded(lower === 'legacy' ? 'skill.reserved_legacy' : lower === 'codes' ? 'skill.reserved_codes' : 'skill.reserved_logs')
  return coded('skill.reserved_name', { name, what })
}
