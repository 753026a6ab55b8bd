/**
 * Skill files an agent read outside the library: a deployed copy (`~/.claude/skills/NAME/SKILL.md`, a link into the
 * library…) says which skill it is by its own id (`metadata.skillbench.skill_id`, or `skill_id` of an AGIAgent
 * file) or by its real path. Read only, small files only (a regular file of at most 256 KB), each path once.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { SkillRef } from '../../shared/types'
import { parseSkillBytes } from '../store/skill-file'

/** What a copy on this machine says about itself. */
export interface SkillCopy {
  /** The skill id its front matter carries. */
  id?: string
  /** Its real path (a link resolved). */
  real?: string
}

const MAX_BYTES = 256 * 1024
/** Distinct paths looked at per report (a log naming thousands of files costs no more than this many reads). */
const MAX_PATHS = 5_000
const SKILL_FILE = /(?:^|\/)(?:SKILL\.md|skill_[^/]*\.md)$/

/** The id a skill file's front matter carries: top-level `skill_id` (AGIAgent) or `metadata.skillbench.skill_id`. Pure. */
export function idOfSkillBytes(bytes: Uint8Array): string | undefined {
  const parsed = parseSkillBytes(bytes)
  if (!parsed.ok) return undefined
  const data = parsed.file.data
  const meta = data.metadata as { skillbench?: { skill_id?: unknown } } | undefined
  const id = data.skill_id ?? meta?.skillbench?.skill_id
  const text = typeof id === 'number' ? String(id) : id
  return typeof text === 'string' && /^[0-9]{1,20}$/.test(text) ? text : undefined
}

async function look(p: string): Promise<SkillCopy | null> {
  try {
    const real = await fs.promises.realpath(p)
    const st = await fs.promises.stat(real)
    if (!st.isFile() || st.size > MAX_BYTES) return { real }
    const id = idOfSkillBytes(await fs.promises.readFile(real))
    return { real, ...(id ? { id } : {}) }
  } catch {
    return null // not on this machine (another machine's path), or unreadable: matched by name alone
  }
}

/** The copies the uses name that exist on this machine, by the path as the log wrote it (absolute paths only). */
export async function resolveCopies(refs: Iterable<Pick<SkillRef, 'path'>>, libraryRoot: string): Promise<Map<string, SkillCopy>> {
  const out = new Map<string, SkillCopy>()
  const seen = new Set<string>()
  const root = libraryRoot.replace(/\/+$/, '') + '/'
  for (const ref of refs) {
    const p = ref.path
    if (!p || seen.has(p) || seen.size >= MAX_PATHS || !path.isAbsolute(p) || !SKILL_FILE.test(p.replace(/\\/g, '/'))) continue
    seen.add(p)
    // a path inside the library is matched by its place there already
    if (p.startsWith(root)) continue
    const copy = await look(p)
    if (copy && (copy.id || (copy.real && copy.real.startsWith(root)))) out.set(p, copy)
  }
  return out
}
