/**
 * Which of a library's skills a logged use means (pure): by id (query results), by path (a file read inside the
 * library, or an AGIAgent `skill_*.md` by its file name), by name (the Skill tool, `skill:load`, a read of
 * `…/skills/NAME/SKILL.md` anywhere: `~/.claude/skills`, `~/.codex/skills`, `.agents/skills`, a deployed copy).
 * Never by title: two skills with similar titles are different skills.
 */
import path from 'node:path'
import type { Skill, SkillRef } from '../../shared/types'
import type { SkillCopy } from './copies'

/** The name a skill answers to: its SKILL.md `name`, else its folder's name; an AGIAgent skill its file stem. */
export function skillName(s: Pick<Skill, 'name' | 'path' | 'format'>): string {
  if (s.format === 'skill-md') {
    if (s.name && s.name.trim()) return s.name.trim()
    const dir = path.posix.dirname(s.path)
    return dir === '.' ? path.posix.basename(s.path, '.md') : path.posix.basename(dir)
  }
  return path.posix.basename(s.path, '.md')
}

/** Folder name of a SKILL.md skill ('' for other skills). */
function folderName(s: Pick<Skill, 'path' | 'format'>): string {
  if (s.format !== 'skill-md') return ''
  const dir = path.posix.dirname(s.path)
  return dir === '.' ? '' : path.posix.basename(dir)
}

function add(map: Map<string, Skill[]>, key: string, s: Skill): void {
  if (!key) return
  const list = map.get(key)
  if (!list) map.set(key, [s])
  else if (!list.includes(s)) list.push(s)
}

export class SkillMatcher {
  private readonly byId = new Map<string, Skill[]>()
  private readonly byName = new Map<string, Skill[]>()
  private readonly byRel = new Map<string, Skill[]>()
  /** AGIAgent skill files by file name (`skill_….md`): unique inside a library, the same in a copy elsewhere. */
  private readonly byFile = new Map<string, Skill[]>()
  private readonly root: string

  /**
   * `skills`: the library's active skills; `root`: its absolute folder (real path); `copies`: what skill files read
   * outside the library say about themselves on this machine (their id, their real path).
   */
  constructor(skills: readonly Skill[], root: string, private readonly copies: ReadonlyMap<string, SkillCopy> = new Map()) {
    this.root = root.replace(/\\/g, '/').replace(/\/+$/, '')
    for (const s of skills) {
      add(this.byId, s.skill_id, s)
      add(this.byName, skillName(s), s)
      add(this.byName, folderName(s), s)
      add(this.byRel, s.path, s)
      if (s.format !== 'skill-md') add(this.byFile, path.posix.basename(s.path), s)
    }
  }

  private named(name: string): Skill[] {
    const exact = this.byName.get(name)
    if (exact) return exact
    // `plugin:skill` (Claude Code plugins, Codex's list) names the skill `skill` of that plugin
    const colon = name.lastIndexOf(':')
    return colon > 0 ? (this.byName.get(name.slice(colon + 1)) ?? []) : []
  }

  /** The file a path names inside the library, by its library-relative path; null when it is outside. */
  private inLibrary(p: string): Skill[] | null {
    const abs = p.replace(/\\/g, '/')
    if (!abs.startsWith(this.root + '/')) return null
    return this.byRel.get(path.posix.normalize(abs.slice(this.root.length + 1))) ?? []
  }

  /** The skills a use means (usually one; none when it names nothing in this library). */
  match(ref: Pick<SkillRef, 'kind' | 'name' | 'path' | 'ids'>): Skill[] {
    if (ref.kind === 'query') {
      const out: Skill[] = []
      for (const id of ref.ids ?? []) for (const s of this.byId.get(id) ?? []) if (!out.includes(s)) out.push(s)
      return out
    }
    if (ref.path) {
      const inside = this.inLibrary(ref.path)
      if (inside) return inside
      // a deployed copy: a link into the library, or a file carrying the skill's id
      const copy = this.copies.get(ref.path)
      const real = copy?.real ? this.inLibrary(copy.real) : null
      if (real?.length) return real
      const byId = copy?.id ? this.byId.get(copy.id) : undefined
      if (byId) return byId
      const file = path.posix.basename(ref.path.replace(/\\/g, '/'))
      if (file !== 'SKILL.md') return this.byFile.get(file) ?? []
    }
    return ref.name ? this.named(ref.name) : []
  }
}
