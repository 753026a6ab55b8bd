import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { DataRootInfo, LibraryInfo } from '../../shared/api'
import { badRequest } from './errors'
import type { SettingsStore } from './settings-store'

/** `<root>/<user>/general/experience`: the AGIAgent library of one user. */
export function userLibraryPath(root: string, user: string): string {
  return path.join(root, user, 'general', 'experience')
}

const TASK_DIR = /^output_/

async function isDir(p: string): Promise<boolean> {
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
 * The data roots and libraries the workbench knows. Every `root` / `library` argument of the API is
 * checked here: the renderer can only name what this registry listed (or a folder the user added).
 */
export class LibraryRegistry {
  constructor(private readonly settings: SettingsStore) {}

  roots(): string[] {
    return [...this.settings.settings.dataRoots]
  }

  async rootInfo(root: string): Promise<DataRootInfo> {
    const exists = await isDir(root)
    const { users, taskCount } = exists ? await discoverUsers(root) : { users: [], taskCount: 0 }
    return { path: root, exists, users, taskCount }
  }

  async listRoots(): Promise<DataRootInfo[]> {
    return Promise.all(this.roots().map((r) => this.rootInfo(r)))
  }

  /** Adds a data root the user chose; it must be an existing folder. Stored as its absolute real path. */
  async addRoot(input: string): Promise<string> {
    const real = await realDir(input)
    if (!this.roots().includes(real)) {
      await this.settings.update({ dataRoots: [...this.roots(), real] })
    }
    return real
  }

  async removeRoot(root: string): Promise<void> {
    const known = this.requireRoot(root)
    await this.settings.update({ dataRoots: this.roots().filter((r) => r !== known) })
  }

  /** Returns the root if it is one of the configured roots, else throws bad_request. */
  requireRoot(root: string): string {
    const resolved = path.resolve(root)
    const known = this.roots().find((r) => r === resolved)
    if (!known) {
      throw badRequest(`unknown data root: ${root} (add it in Settings first)`)
    }
    return known
  }

  /** Adds a SKILL.md (or experience) folder the user chose. */
  async openFolder(input: string): Promise<string> {
    const real = await realDir(input)
    const opened = this.settings.openedLibraries
    if (!opened.includes(real)) {
      await this.settings.setOpenedLibraries([...opened, real])
    }
    return real
  }

  async listLibraries(): Promise<LibraryInfo[]> {
    const out: LibraryInfo[] = []
    const seen = new Set<string>()
    for (const root of this.roots()) {
      const info = await this.rootInfo(root)
      for (const user of info.users) {
        const libPath = userLibraryPath(root, user)
        if (seen.has(libPath)) {
          continue
        }
        seen.add(libPath)
        out.push({ path: libPath, label: `${user} · ${path.basename(root)}`, root, user, origin: 'root', exists: await isDir(libPath) })
      }
    }
    for (const opened of this.settings.openedLibraries) {
      if (seen.has(opened)) {
        continue
      }
      seen.add(opened)
      out.push({ path: opened, label: path.basename(opened), origin: 'opened', exists: await isDir(opened) })
    }
    return out
  }

  /** Returns the library if the workbench knows it, else throws bad_request. */
  async requireLibrary(library: string): Promise<LibraryInfo> {
    const resolved = path.resolve(library)
    const found = (await this.listLibraries()).find((l) => l.path === resolved)
    if (!found) {
      throw badRequest(`unknown library: ${library} (open the folder or add its data root first)`)
    }
    return found
  }

  /** The root and user of a root library (for reflection/overview). */
  async libraryOfUser(root: string, user: string): Promise<LibraryInfo | undefined> {
    const libPath = userLibraryPath(root, user)
    return (await this.listLibraries()).find((l) => l.path === libPath)
  }
}

async function realDir(input: string): Promise<string> {
  if (!path.isAbsolute(input)) {
    throw badRequest(`give an absolute folder path (got "${input}")`)
  }
  let real: string
  try {
    real = await fsp.realpath(input)
  } catch {
    throw badRequest(`folder not found: ${input}`)
  }
  if (!(await isDir(real))) {
    throw badRequest(`not a folder: ${input}`)
  }
  return real
}
