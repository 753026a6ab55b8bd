/**
 * What a library skill becomes in an agent's folder: `<name>/SKILL.md` following the Agent Skills rules, plus
 * the files of its folder. A SKILL.md whose name and description are within the rules under its own name is
 * copied byte for byte (extra top-level keys included: they are agents' extensions); any other (an AGIAgent
 * skill, a name or description out of bounds) is converted losslessly by formats/: Skillbench's own fields ride
 * under `metadata.skillbench`. Pure.
 */
import { createHash } from 'node:crypto'
import type { Skill, SkillFormat } from '../../shared/types'
import { fromAgiAgent, parseAgiAgent } from '../formats/agiagent'
import { fromSkillMd, MAX_NAME_CHARS, parseSkillMd, serializeSkillMd, SKILL_NAME_PATTERN, skillMdNameFor, toSkillMd, uniqueSkillName, validateSkillMd } from '../formats/skill-md'

export interface DeployFile {
  bytes: Buffer
  hash: string
  /** Permission bits (0o644, or 0o755 for an executable script). */
  mode: number
}

/** A library skill with what deploying it needs. */
export interface LibrarySkill {
  skill: Skill
  /** The skill file's text. */
  text: string
  /** The other files of a SKILL.md folder (relative to it); none for AGIAgent skills. */
  resources: { rel: string; bytes: Buffer; mode: number }[]
}

export interface RenderedSkill {
  name: string
  skill_id: string
  title: string
  /** The skill file in the library. */
  source: string
  format: SkillFormat
  files: Map<string, DeployFile>
  description: string
  /** Characters of name + description: what an agent lists up front for this skill. */
  metaChars: number
  /** Copied as it is (a valid SKILL.md under its own name) rather than converted. */
  verbatim: boolean
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export function deployFile(bytes: Buffer, mode = 0o644): DeployFile {
  return { bytes, hash: sha256(bytes), mode }
}

/** Characters as an agent counts them (code points). */
export function chars(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/** The name a skill asks for: its own valid SKILL.md name, else one made from its title (kebab-case). */
export function wantedName(s: LibrarySkill): { name: string; fixed: boolean } {
  if (s.skill.format === 'skill-md') {
    const own = s.skill.name ?? ''
    if (SKILL_NAME_PATTERN.test(own) && own.length <= MAX_NAME_CHARS) return { name: own, fixed: true }
  }
  return { name: skillMdNameFor({ name: s.skill.name, title: s.skill.title, skill_id: s.skill.skill_id }), fixed: false }
}

/**
 * One folder name per skill, unique in the target: a valid SKILL.md name is kept (the spec wants it to equal the
 * folder), a converted skill keeps the name it was deployed under before (so renaming its title does not move it),
 * and clashes get `-2`, `-3`… in library order.
 */
export function assignNames(skills: readonly LibrarySkill[], previous: ReadonlyMap<string, string>): Map<string, string> {
  const taken = new Set<string>()
  const out = new Map<string, string>()
  const ordered = [...skills].sort((a, b) => (a.skill.path < b.skill.path ? -1 : a.skill.path > b.skill.path ? 1 : 0))
  const wanted = new Map(ordered.map((s) => [s.skill.skill_id, wantedName(s)]))
  // Fixed names first (they cannot move), then names these skills had in the target, then the rest.
  for (const s of ordered) {
    const w = wanted.get(s.skill.skill_id)!
    if (w.fixed && !taken.has(w.name)) out.set(s.skill.skill_id, uniqueSkillName(w.name, taken))
  }
  for (const s of ordered) {
    const prev = previous.get(s.skill.skill_id)
    if (!out.has(s.skill.skill_id) && prev && !taken.has(prev) && !wanted.get(s.skill.skill_id)!.fixed) out.set(s.skill.skill_id, uniqueSkillName(prev, taken))
  }
  for (const s of ordered) {
    if (!out.has(s.skill.skill_id)) out.set(s.skill.skill_id, uniqueSkillName(wanted.get(s.skill.skill_id)!.name, taken))
  }
  return out
}

/** The files a skill gets in the target under `name`. Throws (FormatError) when its file cannot be read as a skill. */
export function renderSkill(s: LibrarySkill, name: string): RenderedSkill {
  let text: string
  let description: string
  let verbatim = false
  if (s.skill.format === 'skill-md') {
    const record = parseSkillMd(s.text)
    // Extra top-level keys are other agents' extensions (Claude Code's `disable-model-invocation`…): agents that do
    // not know them ignore them, so they stay where their authors put them; the name and description limits hold.
    const errors = validateSkillMd(record, { dirName: name }).filter((p) => p.level === 'error' && p.messageCode !== 'skillmd.unexpected_key')
    if (errors.length === 0) {
      text = s.text
      verbatim = true
      description = String(record.frontMatter.description)
    } else {
      const out = toSkillMd(fromSkillMd({ ...record, resources: s.resources.map((r) => r.rel) }), { name })
      text = serializeSkillMd(out)
      description = String(out.frontMatter.description)
    }
  } else {
    const out = toSkillMd(fromAgiAgent(parseAgiAgent(s.text)), { name, withResources: false })
    text = serializeSkillMd(out)
    description = String(out.frontMatter.description)
  }
  const files = new Map<string, DeployFile>([['SKILL.md', deployFile(Buffer.from(text, 'utf8'))]])
  for (const r of s.resources) files.set(r.rel, deployFile(r.bytes, r.mode))
  return {
    name,
    skill_id: s.skill.skill_id,
    title: s.skill.title,
    source: s.skill.path,
    format: s.skill.format,
    files,
    description,
    metaChars: chars(name) + chars(description),
    verbatim
  }
}
