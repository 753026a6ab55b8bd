/**
 * What a data root holds, judged from its first levels: its users and task count, and, when it yields none, what
 * it is instead (a skill library, one task folder, a folder of agent sessions…). The app's Workspaces screen
 * (workbench/libraries.ts) offers its fix from it; `skillbench reflect` refuses a skill library given as the root.
 */
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { RootProblem } from '../../shared/api'

const TASK_DIR = /^output_/

export async function isDir(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory()
  } catch {
    return false
  }
}

async function readDirNames(dir: string): Promise<{ name: string; dir: boolean }[]> {
  try {
    const entries = await fsp.readdir(dir, { withFileTypes: true })
    return entries.map((e) => ({ name: e.name, dir: e.isDirectory() }))
  } catch {
    return []
  }
}

/** Users of a data root: sub-folders holding `general/` or `output_*` task folders. Sorted. */
export async function discoverUsers(root: string): Promise<{ users: string[]; taskCount: number }> {
  const users: string[] = []
  let taskCount = 0
  for (const entry of await readDirNames(root)) {
    if (!entry.dir || entry.name.startsWith('.')) {
      continue
    }
    if (TASK_DIR.test(entry.name)) {
      taskCount++
      continue
    }
    const inner = await readDirNames(path.join(root, entry.name))
    const tasks = inner.filter((e) => e.dir && TASK_DIR.test(e.name)).length
    const hasGeneral = inner.some((e) => e.dir && e.name === 'general')
    if (tasks > 0 || hasGeneral) {
      users.push(entry.name)
      taskCount += tasks
    }
  }
  users.sort()
  return { users, taskCount }
}

/**
 * What is wrong with a data root that yields no users or tasks, judged from its first levels: missing,
 * empty, a skill library or a single task folder given instead of the root, a folder of agent sessions, or
 * simply nothing in the AGIAgent layout. Undefined when the root has users or tasks.
 */
export async function diagnoseRoot(root: string, found: { users: string[]; taskCount: number }): Promise<RootProblem | undefined> {
  if (!(await isDir(root))) return 'missing'
  if (found.taskCount > 0) return undefined
  const entries = await readDirNames(root)
  if (found.users.length > 0) return 'no-tasks'
  if (entries.length === 0) return 'empty'
  const names = entries.map((e) => e.name)
  if (names.some((n) => /^skill_.*\.md$/.test(n) || n === 'SKILL.md') || (await hasSkillMdChild(root, entries))) return 'library'
  if (TASK_DIR.test(path.basename(root)) && names.includes('logs')) return 'task-folder'
  if (names.some((n) => n.endsWith('.jsonl')) || (await hasJsonlChild(root, entries))) return 'sessions'
  return 'no-tasks'
}

/** How deep below a root a SKILL.md still makes it a library: `<collection>/skills/<skill>/SKILL.md`, as downloaded. */
const SKILL_MD_DEPTH = 3
/** Folders read at most while looking (breadth first), so a large unrelated folder costs little. */
const SKILL_MD_READS = 300

/**
 * A SKILL.md in a folder below the root: one skill per folder, or a folder of collections (git clones of skill
 * repositories, each with its skills at the top or under `skills/`) — the library reads SKILL.md files at any depth.
 */
async function hasSkillMdChild(root: string, entries: { name: string; dir: boolean }[]): Promise<boolean> {
  let level = entries.filter((x) => x.dir && !x.name.startsWith('.')).map((x) => path.join(root, x.name))
  let reads = 0
  for (let depth = 1; depth <= SKILL_MD_DEPTH && level.length > 0; depth++) {
    const next: string[] = []
    for (const dir of level) {
      if (++reads > SKILL_MD_READS) return false
      const inner = await readDirNames(dir)
      if (inner.some((x) => !x.dir && x.name === 'SKILL.md')) return true
      for (const x of inner) if (x.dir && !x.name.startsWith('.') && x.name !== 'node_modules') next.push(path.join(dir, x.name))
    }
    level = next
  }
  return false
}

async function hasJsonlChild(root: string, entries: { name: string; dir: boolean }[]): Promise<boolean> {
  for (const e of entries.filter((x) => x.dir).slice(0, 50)) {
    if ((await readDirNames(path.join(root, e.name))).some((x) => !x.dir && x.name.endsWith('.jsonl'))) return true
  }
  return false
}
