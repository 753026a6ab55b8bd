/**
 * `index.json`: the catalogue of a SKILL.md tree (seed 001 `~/.synapse/skills/index.json`), regenerated from the
 * folders whenever we write or import, so it never drifts. Deterministic (no timestamps): same tree, same bytes.
 *
 * Shape: `{ version: 1, generator: "skillbench", skills: [{ name, description, path, scripts, references, assets }] }`
 * with `path` the folder relative to the tree root and the file lists relative to that folder; sorted by path.
 */
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../store/atomic'
import { isPlainObject } from './safe-yaml'
import { findSkillFiles, listResources } from './tree'
import { parseSkillMd } from './skill-md'
import { decodeSkillBytes } from '../store/skill-file'

export const INDEX_FILE = 'index.json'

export interface SkillIndexEntry {
  name: string
  description: string
  /** Skill folder relative to the tree root (forward slashes). */
  path: string
  /** `scripts/…` files (relative to the skill folder). */
  scripts: string[]
  references: string[]
  assets: string[]
}

export interface SkillIndex {
  version: 1
  generator: 'skillbench'
  skills: SkillIndexEntry[]
}

/** Builds the index of every SKILL.md under `root` (unreadable ones are left out; `validate` reports them). */
export async function buildSkillIndex(root: string): Promise<SkillIndex> {
  const skills: SkillIndexEntry[] = []
  for (const found of await findSkillFiles(root, 'skill-md')) {
    const dir = path.dirname(found.abs)
    let fm: Record<string, unknown>
    try {
      const decoded = decodeSkillBytes(await fs.promises.readFile(found.abs))
      if (!decoded.ok) continue
      fm = parseSkillMd(decoded.text).frontMatter
    } catch {
      continue
    }
    const files = await listResources(dir)
    const under = (prefix: string): string[] => files.filter((f) => f.startsWith(prefix + '/'))
    const rel = path.posix.dirname(found.path)
    skills.push({
      name: typeof fm.name === 'string' ? fm.name : path.basename(dir),
      description: typeof fm.description === 'string' ? fm.description : '',
      path: rel,
      scripts: under('scripts'),
      references: under('references'),
      assets: under('assets')
    })
  }
  skills.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { version: 1, generator: 'skillbench', skills }
}

/** The bytes of an index file. */
export function serializeSkillIndex(index: SkillIndex): string {
  return JSON.stringify(index, null, 2) + '\n'
}

/** Reads `root/index.json`, or null when absent or not an index. */
export async function readSkillIndex(root: string): Promise<SkillIndex | null> {
  try {
    const data: unknown = JSON.parse(await fs.promises.readFile(path.join(root, INDEX_FILE), 'utf8'))
    return isPlainObject(data) && Array.isArray(data.skills) ? (data as unknown as SkillIndex) : null
  } catch {
    return null
  }
}

/**
 * Regenerates `root/index.json` atomically when it differs from the tree (or is missing and the tree has skills).
 * Refuses to replace an `index.json` that is not ours (no `generator: "skillbench"`). Returns what happened.
 */
export async function syncSkillIndex(root: string): Promise<{ status: 'written' | 'unchanged' | 'skipped'; reason?: string; index: SkillIndex }> {
  const index = await buildSkillIndex(root)
  const target = path.join(root, INDEX_FILE)
  const text = serializeSkillIndex(index)
  let current: string | null
  try {
    current = await fs.promises.readFile(target, 'utf8')
  } catch {
    current = null
  }
  if (current === text) return { status: 'unchanged', index }
  if (current === null && index.skills.length === 0) return { status: 'unchanged', index }
  if (current !== null) {
    let ours: boolean
    try {
      const data: unknown = JSON.parse(current)
      ours = isPlainObject(data) && (data.generator === 'skillbench' || (Array.isArray(data.skills) && data.generator === undefined && data.version === undefined))
    } catch {
      ours = false
    }
    if (!ours) return { status: 'skipped', reason: `${INDEX_FILE} exists and was not written by skillbench: left as it is`, index }
  }
  await writeFileAtomic(target, text)
  return { status: 'written', index }
}
