/**
 * Edits made to a deployed copy (by an agent or a person), as named fields: the SKILL.md body, each front-matter
 * key, each other file. Comparing the copy as deployed with the copy now says what was changed there; comparing
 * it with what the library would deploy now says whether those changes are already in the library. The changes
 * that can go back are turned into a `learned` proposal for the library skill. Pure.
 */
import path from 'node:path'
import type { FileChange, Proposal, Skill } from '../../shared/types'
import { fromSkillMd, parseSkillMd } from '../formats/skill-md'
import { assembleSkillText, decodeSkillBytes, parseSkillText, rewriteSkillFile, type FrontMatterChange, type SkillFileParts } from '../store/skill-file'
import { changesForMeta } from '../store/skill-meta'
import { keepBoth, mergeFrontMatter, mergeText } from '../sources/three-way'
import { sha256 } from './render'
import { coded, refOf, type CodedText } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'

export type Files = ReadonlyMap<string, Buffer>

/** The file with a new body and front-matter changes; with no change to the front matter its text is kept as written. */
function rewrite(file: SkillFileParts, changes: FrontMatterChange[], body: string): string {
  return changes.length === 0 ? assembleSkillText({ yaml: file.yaml, body, bom: file.bom, eol: file.eol, gap: file.gap }) : rewriteSkillFile(file, changes, body)
}

const BOOKKEEPING = 'fm.metadata.skillbench'

function canonical(v: unknown): string {
  const norm = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(norm) : x && typeof x === 'object' ? Object.fromEntries(Object.keys(x as object).sort().map((k) => [k, norm((x as Record<string, unknown>)[k])])) : x
  return JSON.stringify(norm(v)) ?? 'undefined'
}

function textOf(bytes: Buffer | undefined): string | null {
  if (!bytes || bytes.includes(0)) return null
  const d = decodeSkillBytes(bytes)
  return d.ok ? d.text : null
}

/** A skill folder as fields (`body`, `fm.<key>`, `fm.metadata.<key>`, `file:<rel>`); null when its SKILL.md does not parse. */
export function fieldsOf(files: Files): Map<string, string> | null {
  const text = textOf(files.get('SKILL.md'))
  if (text === null) return null
  const parsed = parseSkillText(text)
  if (!parsed.ok) return null
  const out = new Map<string, string>([['body', parsed.file.body]])
  for (const [k, v] of Object.entries(parsed.file.data)) {
    if (k === 'metadata' && v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [mk, mv] of Object.entries(v as Record<string, unknown>)) out.set(`fm.metadata.${mk}`, canonical(mv))
    } else out.set(`fm.${k}`, canonical(v))
  }
  for (const [rel, bytes] of files) if (rel !== 'SKILL.md') out.set(`file:${rel}`, sha256(bytes))
  return out
}

/** The fields that differ between two folders. */
export function changedFields(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort()
}

/** Whether a changed field can be carried back into a library skill of this format. */
export function learnable(field: string, format: Skill['format']): boolean {
  if (field === BOOKKEEPING || field === 'fm.name') return false
  if (format === 'agiagent') return field === 'body' || field === 'fm.description'
  return true
}

export interface LearnInput {
  skill: Skill
  /** The library skill file's text now, and the other files of its folder. */
  libraryText: string
  libraryFiles: Files
  /** The copy as Skillbench deployed it (null when its bytes are no longer known). */
  deployed: Files | null
  /** The copy as it is in the target now. */
  current: Files
  /** What the library would deploy now (the base when the deployed bytes are unknown). */
  rendered: Files
  name: string
  target: { spec: string; label: string; dir: string }
}

/**
 * The `learned` proposal that brings the changes made to a deployed copy into the library skill, merged three
 * ways with any change the library made since (conflicts kept between markers); null when nothing can go back.
 */
export function learnedProposal(input: LearnInput): { proposal: Proposal | null; notes: CodedText[] } {
  const { skill, current } = input
  // what could not go back, by code (the report and evidence.notes keep their English; note_refs the codes)
  const notes: CodedText[] = []
  const base = input.deployed ?? input.rendered
  const baseFields = fieldsOf(base)
  const curFields = fieldsOf(current)
  if (!curFields || !baseFields) return { proposal: null, notes: [coded('deploy.note_unparsable')] }
  const changed = changedFields(baseFields, curFields)
  const kept = changed.filter((f) => !learnable(f, skill.format))
  if (kept.some((f) => f !== BOOKKEEPING)) notes.push(coded('deploy.note_not_carried', { fields: kept.filter((f) => f !== BOOKKEEPING).join(', ') }))
  const fields = changed.filter((f) => learnable(f, skill.format))
  if (fields.length === 0) return { proposal: null, notes }
  const labels = { ours: 'library', theirs: `deployed copy (${input.target.spec})` }
  const merge = (b: string, o: string, t: string): { text: string; conflicts: number } => (input.deployed ? mergeText(b, o, t, labels) : keepBoth(o, t, labels))
  const libParsed = parseSkillText(input.libraryText)
  if (!libParsed.ok) return { proposal: null, notes: [...notes, coded('source.local_unparsable', { path: skill.path })] }
  const baseText = textOf(base.get('SKILL.md'))!
  const curText = textOf(current.get('SKILL.md'))!
  let conflicts = 0
  let after: string
  if (skill.format === 'skill-md') {
    const b = parseSkillText(baseText)
    const c = parseSkillText(curText)
    if (!b.ok || !c.ok) return { proposal: null, notes }
    const body = fields.includes('body') ? merge(b.file.body, libParsed.file.body, c.file.body) : { text: libParsed.file.body, conflicts: 0 }
    const fm = mergeFrontMatter(b.file.data, libParsed.file.data, c.file.data, ['name'])
    conflicts += body.conflicts + fm.conflicts.length
    if (fm.conflicts.length > 0) notes.push(coded('deploy.note_library_kept', { keys: fm.conflicts.join(', ') }))
    after = rewrite(libParsed.file, fm.changes, body.text)
  } else {
    // An AGIAgent skill went out converted: its body and its description (usage conditions) come back.
    const bm = fromSkillMd(parseSkillMd(baseText))
    const cm = fromSkillMd(parseSkillMd(curText))
    const body = fields.includes('body') ? merge(bm.body, libParsed.file.body, cm.body) : { text: libParsed.file.body, conflicts: 0 }
    conflicts += body.conflicts
    const meta: { usage_conditions?: string } = {}
    if (cm.description !== bm.description) {
      const libUsage = typeof libParsed.file.data.usage_conditions === 'string' ? libParsed.file.data.usage_conditions : ''
      if (libUsage === bm.description || libUsage === (bm.usage_conditions ?? '')) meta.usage_conditions = cm.description
      else {
        conflicts++
        notes.push(coded('deploy.note_usage_kept'))
      }
    }
    after = rewrite(libParsed.file, Object.keys(meta).length > 0 ? changesForMeta('agiagent', libParsed.file.data, meta, skill.skill_id) : [], body.text)
  }
  const changes: FileChange[] = []
  if (after !== input.libraryText) changes.push({ path: skill.path, before: input.libraryText, after })
  if (skill.format === 'skill-md') {
    const dir = path.posix.dirname(skill.path)
    for (const f of fields.filter((x) => x.startsWith('file:'))) {
      const rel = f.slice(5)
      const cur = current.get(rel)
      const mine = input.libraryFiles.get(rel)
      const was = base.get(rel)
      if (!cur) {
        notes.push(coded('deploy.note_removed_deployed', { file: rel }))
        continue
      }
      const curT = textOf(cur)
      const mineT = mine ? textOf(mine) : null
      if (curT === null || (mine && mineT === null)) {
        notes.push(coded('deploy.note_binary', { file: rel }))
        continue
      }
      if (mineT === curT) continue
      const wasT = was ? textOf(was) : null
      const merged = mineT === null ? { text: curT, conflicts: 0 } : wasT !== null ? merge(wasT, mineT, curT) : keepBoth(mineT, curT, labels)
      conflicts += merged.conflicts
      changes.push({ path: `${dir}/${rel}`, before: mineT, after: merged.text })
    }
  }
  if (changes.length === 0) return { proposal: null, notes }
  // why, in English as before (`reason`) and by code beside it (the Curate screen words it in its own language)
  const what = { title: skill.title, target: input.target.label }
  const why = conflicts > 0 ? coded('deploy.learned_reason_conflicts', { ...what, n: conflicts }) : coded('deploy.learned_reason', what)
  const stamp = sha256([...current.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, bytes]) => `${rel}\u0000${sha256(bytes)}`).join('\n')).slice(0, 12)
  return {
    notes,
    proposal: {
      id: `learned-${skill.skill_id}-${stamp}`,
      kind: 'learned',
      members: [{ skill_id: skill.skill_id, title: skill.title, path: skill.path }],
      score: 1,
      ...codedReason(why),
      evidence: {
        target: input.target.dir,
        spec: input.target.spec,
        name: input.name,
        fields,
        conflicts,
        // the notes in English (as before) and by code, in the same order
        ...(notes.length > 0 ? { notes: notes.map((n) => n.text), note_refs: notes.map(refOf) } : {}),
        deployed: { before: baseText, after: curText }
      },
      changes,
      status: 'pending',
      author: `deployed:${input.target.spec}`
    }
  }
}
