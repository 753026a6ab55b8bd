/**
 * Editing a skill in its own format: the file is read, the change applied to the neutral model, and the file
 * written back in the same format (unknown keys and our carrier kept), atomically and only if nobody changed it
 * since it was read (sha256 compare). Used for learned YAML and MAS configs; AGIAgent / SKILL.md edits of the
 * library go through the store, which keeps formatting and comments.
 */
import { coded } from '../../shared/error-codes'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { writeFileAtomic } from '../store/atomic'
import { readFileAtMost } from '../store/read-at-most'
import { decodeSkillBytes } from '../store/skill-file'
import { serializeAgiAgent, toAgiAgent } from './agiagent'
import { renderLearnedBody, serializeLearnedYaml, toLearnedYaml } from './learned-yaml'
import { serializeMasConfig, toMasConfig } from './mas-config'
import { FormatError, normalizeSkill, type FormatId, type PortableSkill } from './model'
import { serializeSkillMd, toSkillMd } from './skill-md'
import { formatFromName, MAX_FORMAT_FILE_BYTES, modelOf, parseAny } from './tree'

/** A change to a skill: model fields to set (`extra` replaces the bags wholesale). */
export type SkillEdit = Partial<Omit<PortableSkill, 'extra'>> & { extra?: PortableSkill['extra'] }

/** Serializes a model in a format (the inverse of parse + from). */
export function serializeInFormat(format: FormatId, skill: PortableSkill, opts: { skillMdName?: string } = {}): string {
  switch (format) {
    case 'agiagent':
      return serializeAgiAgent(toAgiAgent(skill))
    case 'skill-md':
      return serializeSkillMd(toSkillMd(skill, { name: opts.skillMdName }))
    case 'learned-yaml':
      return serializeLearnedYaml(toLearnedYaml(skill))
    case 'mas-config':
      return serializeMasConfig(toMasConfig(skill))
  }
}

/** Applies an edit to a skill file's text and returns the new text, same format (pure). */
export function editSkillText(format: FormatId, text: string, edit: SkillEdit, opts: { skillMdName?: string } = {}): string {
  const any = parseAny(format, text)
  const before = modelOf(any)
  const merged = normalizeSkill({ ...before, ...edit } as PortableSkill)
  // A body that was only the rendering of the steps follows the edit instead of going stale.
  if (edit.body === undefined && before.body === renderLearnedBody(before)) merged.body = renderLearnedBody(merged)
  return serializeInFormat(any.format, merged, opts)
}

/** sha256 (hex) of a file's bytes: the base for conflict detection. */
export function hashText(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * Edits a skill file in place. `baseHash` (from when the caller read it) makes the write fail with a clear
 * conflict error if the file changed since. Returns the new hash.
 */
export async function editSkillFile(abs: string, edit: SkillEdit, baseHash?: string): Promise<{ hash: string; text: string }> {
  const format = formatFromName(path.basename(abs))
  if (!format) throw new FormatError(coded('format.not_skill_name', { name: path.basename(abs) }))
  // The loaders' limit, checked on what is read: opened first (O_NONBLOCK: a FIFO swapped in never blocks;
  // O_NOFOLLOW: a link is refused, as it always was here), the descriptor fstat'ed, at most the limit + 1 bytes read.
  const read = await readFileAtMost(abs, MAX_FORMAT_FILE_BYTES)
  if (read.kind === 'too_large') throw new FormatError(coded('format.file_too_large', { bytes: MAX_FORMAT_FILE_BYTES }))
  if (read.kind !== 'ok') throw new FormatError(coded('format.not_regular', { path: abs }))
  const bytes = read.bytes
  if (baseHash !== undefined && hashText(bytes) !== baseHash) {
    throw new FormatError(coded('format.changed_since_read', { name: path.basename(abs) }))
  }
  const decoded = decodeSkillBytes(bytes)
  if (!decoded.ok) throw new FormatError(coded(decoded.messageCode, decoded.params))
  const text = editSkillText(format, decoded.text, edit, { skillMdName: path.basename(path.dirname(abs)) })
  // Re-check right before the write: a change made while we worked (also one to a link, a FIFO or a bigger file)
  // is never overwritten.
  const now = await readFileAtMost(abs, MAX_FORMAT_FILE_BYTES)
  if (now.kind !== 'ok' || hashText(now.bytes) !== hashText(bytes)) {
    throw new FormatError(coded('format.changed_while_editing', { name: path.basename(abs) }))
  }
  await writeFileAtomic(abs, text, { mustExist: true })
  return { hash: hashText(text), text }
}
