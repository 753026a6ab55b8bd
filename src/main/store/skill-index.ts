/**
 * `index.json`: the catalogue of a SKILL.md tree (seed 001 `~/.synapse/skills/index.json`), regenerated from the
 * folders whenever we write or import, so it never drifts. Deterministic (no timestamps): same tree, same bytes.
 *
 * Shape: `{ version: 1, generator: "skillbench", skills: [{ name, description, path, scripts, references, assets }] }`
 * with `path` the folder relative to the tree root and the file lists relative to that folder; sorted by path.
 * Lives in the store because the store keeps it in sync when it writes SKILL.md folders (formats/ re-exports it).
 */
import fs from 'node:fs'
import path from 'node:path'
import { isTempName } from './atomic'
import { readContainedText, writeContained } from './contained'
import { decodeSkillBytes, parseSkillText } from './skill-file'
import { walkSkillTree } from './walk'
import { coded, refOf, type MessageRef } from '../../shared/error-codes'

export const INDEX_FILE = 'index.json'
/** Where a catalogue goes in a library that has none at its root: with the bookkeeping (the folder stays what agents load). */
export const BOOKKEEPING_INDEX_FILE = '.skillbench/index.json'

/**
 * Which catalogue file a SKILL.md tree keeps: a root `index.json` it already has (Synapse's `~/.synapse/skills/
 * index.json`, seed 001) or a Synapse skills folder; else `.skillbench/index.json`, so a Claude Code, Codex or Agent
 * Skills folder gets no file agents would not load.
 */
export function indexFileFor(root: string): string {
  if (fs.lstatSync(path.join(root, INDEX_FILE), { throwIfNoEntry: false })) return INDEX_FILE
  return /[\\/]\.synapse[\\/]skills[\\/]?$/.test(root) ? INDEX_FILE : BOOKKEEPING_INDEX_FILE
}

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

const MAX_DEPTH = 12
const MAX_RESOURCES = 2000

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Every `SKILL.md` below the root (not the root's own), not looking inside a skill folder; links never followed. */
async function findSkillMdFiles(root: string): Promise<{ path: string; abs: string }[]> {
  const out: { path: string; abs: string }[] = []
  await walkSkillTree(root, (f) => {
    if (f.name === 'SKILL.md' && f.depth > 0) out.push({ path: f.rel, abs: f.abs })
  })
  return out
}

/** Files of a SKILL.md folder other than SKILL.md itself (relative, sorted; symlinks and temp files skipped). */
export async function listResources(skillDir: string): Promise<string[]> {
  const out: string[] = []
  async function walk(dir: string, rel: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH || out.length >= MAX_RESOURCES) return
    let entries: fs.Dirent[]
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink() || isTempName(entry.name)) continue
      const childRel = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), childRel, depth + 1)
      else if (entry.isFile() && !(depth === 0 && entry.name === 'SKILL.md')) out.push(childRel)
    }
  }
  await walk(skillDir, '', 0)
  return out.sort()
}

/** Builds the index of every SKILL.md under `root` (unreadable ones are left out; `validate` reports them). */
export async function buildSkillIndex(root: string): Promise<SkillIndex> {
  const skills: SkillIndexEntry[] = []
  for (const found of await findSkillMdFiles(root)) {
    const dir = path.dirname(found.abs)
    let fm: Record<string, unknown>
    try {
      const decoded = decodeSkillBytes(await fs.promises.readFile(found.abs))
      if (!decoded.ok) continue
      const parsed = parseSkillText(decoded.text)
      if (!parsed.ok) continue
      fm = parsed.file.data
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

/** Reads `root/index.json` (or `rel`), or null when absent or not an index (never through a link). */
export async function readSkillIndex(root: string, rel: string = INDEX_FILE): Promise<SkillIndex | null> {
  try {
    const data: unknown = JSON.parse((await readContainedText(root, rel)) ?? '')
    return isPlainObject(data) && Array.isArray(data.skills) ? (data as unknown as SkillIndex) : null
  } catch {
    return null
  }
}

/**
 * Regenerates `root/index.json` atomically when it differs from the tree (or is missing and the tree has skills).
 * Refuses to replace an `index.json` that is not ours (no `generator: "skillbench"`). Returns what happened.
 */
export async function syncSkillIndex(root: string, rel: string = INDEX_FILE): Promise<{ status: 'written' | 'unchanged' | 'skipped'; reason?: string; reasonRef?: MessageRef; index: SkillIndex }> {
  const index = await buildSkillIndex(root)
  const text = serializeSkillIndex(index)
  // A link named index.json is refused here (path_escape), never read or written through; it is told as the write
  // it stops ("never written through": index.json could not be updated).
  const current = await readContainedText(root, rel, { toRewrite: true })
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
    if (!ours) {
      const why = coded('index.not_ours', { file: rel })
      return { status: 'skipped', reason: why.text, reasonRef: refOf(why), index }
    }
  }
  await writeContained(root, rel, text)
  return { status: 'written', index }
}
