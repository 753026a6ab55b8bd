/**
 * Where a library keeps its retired skills and backed-up code (pure; shared by the store, the review engine, the
 * tools and the screens).
 *
 * - AGIAgent `skill_*.md` files retire to `legacy/` beside them: upstream's own layout, which its tools read.
 * - SKILL.md folders retire to `.skillbench/legacy/<folder>`: a Claude Code, Codex or Agent Skills folder stays
 *   exactly what agents load. A root `legacy/` left by older versions is still read and restored from (nothing is
 *   lost); new retirements never go there.
 */

/** AGIAgent's folder of retired skills (upstream layout). */
export const AGIAGENT_LEGACY_DIR = 'legacy'
/** Retired SKILL.md folders: under the library's bookkeeping folder. */
export const SKILL_MD_LEGACY_DIR = '.skillbench/legacy'

/** The folder a skill of this format retires into. */
export function legacyDirFor(format: 'agiagent' | 'skill-md'): string {
  return format === 'skill-md' ? SKILL_MD_LEGACY_DIR : AGIAGENT_LEGACY_DIR
}

/** The legacy folder a library-relative path lies in (`legacy` or `.skillbench/legacy`), or null. */
export function legacyDirOf(rel: string): string | null {
  if (rel.startsWith(SKILL_MD_LEGACY_DIR + '/')) return SKILL_MD_LEGACY_DIR
  if (rel.startsWith(AGIAGENT_LEGACY_DIR + '/')) return AGIAGENT_LEGACY_DIR
  return null
}

/** True when the path lies in a folder of retired skills (either place). */
export function isLegacyPath(rel: string): boolean {
  return legacyDirOf(rel) !== null
}

/** The path a retired skill had while active: its legacy folder dropped (`.skillbench/legacy/pdf/SKILL.md` → `pdf/SKILL.md`). */
export function activePathOf(rel: string): string {
  const dir = legacyDirOf(rel)
  return dir ? rel.slice(dir.length + 1) : rel
}

/** True when `rel` is one of the legacy folders themselves. */
export function isLegacyDir(rel: string): boolean {
  return rel === AGIAGENT_LEGACY_DIR || rel === SKILL_MD_LEGACY_DIR
}

/** Backed-up code of AGIAgent skills: upstream's `codes/` beside them. */
export const AGIAGENT_CODES_DIR = 'codes'
/** Backed-up code of SKILL.md skills: under the bookkeeping folder, like retired ones. */
export const SKILL_MD_CODES_DIR = '.skillbench/codes'

/** The folder a skill's backed-up task files go into (`codes/` or `.skillbench/codes/`). */
export function codesDirFor(format: 'agiagent' | 'skill-md'): string {
  return format === 'skill-md' ? SKILL_MD_CODES_DIR : AGIAGENT_CODES_DIR
}

/** True for the parts of `.skillbench/` that hold the library's own skills and files (retired skills, backed-up code). */
export function isLibraryPartOfBookkeeping(rel: string): boolean {
  return rel.startsWith(SKILL_MD_LEGACY_DIR + '/') || rel.startsWith(SKILL_MD_CODES_DIR + '/')
}
