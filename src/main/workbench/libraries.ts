import { promises as fsp, realpathSync } from 'node:fs'
import path from 'node:path'
import type { DataRootInfo, LibraryInfo } from '../../shared/api'
import { coded } from '../../shared/error-codes'
import { diagnoseRoot, discoverUsers, isDir } from '../scan/root-problem'
import { badRequest } from './errors'
import { inBundledSample, isInsideAny, sampleRoots } from '../config/sample-data'
import { resourcesDir } from '../reflect/resources'
import type { SettingsStore } from './settings-store'

/** `<root>/<user>/general/experience`: the AGIAgent library of one user. */
export function userLibraryPath(root: string, user: string): string {
  return path.join(root, user, 'general', 'experience')
}

/** The meaningful name of a library folder: the user for `<user>/general/experience`, else the folder name. */
function leadingSegments(p: string): string[] {
  const parts = p.split(/[\\/]+/).filter(Boolean).reverse()
  if (parts[0] === 'experience' && parts[1] === 'general' && parts[2]) return [parts[2], ...parts.slice(3)]
  return parts
}

/**
 * Labels that tell folders apart (pure): the folder name, followed by as many parent folders as it takes to
 * differ from every other label (`skills · .claude` vs `skills · .codex`), like editors label same-named tabs.
 */
export function distinctLabels(paths: readonly string[], taken: readonly string[] = []): string[] {
  const segments = paths.map(leadingSegments)
  const depth = segments.map(() => 1)
  const label = (i: number): string => segments[i]!.slice(0, depth[i]).join(' · ') || paths[i]!
  for (let round = 0; round < 16; round++) {
    const labels = paths.map((_, i) => label(i))
    let changed = false
    labels.forEach((l, i) => {
      const clash = taken.includes(l) || labels.some((other, j) => j !== i && other === l)
      if (clash && depth[i]! < segments[i]!.length) {
        depth[i]!++
        changed = true
      }
    })
    if (!changed) break
  }
  return paths.map((_, i) => label(i))
}

/**
 * The data roots and libraries the workbench knows. Every `root` / `library` argument of the API is
 * checked here: the renderer can only name what this registry listed (or a folder the user added).
 *
 * Roots are remembered (in the settings file) or given for this run only (`skillbench serve --root-dir`):
 * a command-line root comes first and is forgotten when the process ends unless the user chooses to remember it.
 */
export class LibraryRegistry {
  private readonly session: string[] = []

  /** `resourcesDir`: the project's resources folder, whose `sample-data` is the bundled sample (config/sample-data.ts). */
  constructor(
    private readonly settings: SettingsStore,
    private readonly opts: { resourcesDir?: string } = {}
  ) {}

  /** Every root: this run's first, then the remembered ones. */
  roots(): string[] {
    return [...new Set([...this.session, ...this.settings.settings.dataRoots])]
  }

  /** The root given for this run (command line), if any. */
  startRoot(): string | undefined {
    return this.session[0]
  }

  async rootInfo(root: string): Promise<DataRootInfo> {
    const exists = await isDir(root)
    const found = exists ? await discoverUsers(root) : { users: [], taskCount: 0 }
    const sample = this.bundledSample(root)
    const problem = sample ? 'bundled-sample' : await diagnoseRoot(root, found)
    return {
      path: root,
      exists,
      users: found.users,
      taskCount: found.taskCount,
      remembered: this.settings.settings.dataRoots.includes(root),
      thisRunOnly: this.session.includes(root) && !this.settings.settings.dataRoots.includes(root),
      ...(problem ? { problem } : {}),
      ...(sample ? { bundledSample: { copy: sample.copy, sample: sample.sample } } : {})
    }
  }

  /**
   * Where a folder is in the bundled sample data, and its writable copy; undefined when it is not in it. A folder
   * remembered by an older version may be one (the app adds none now): it stays listed, read-only.
   */
  private bundledSample(p: string): { sample: string; copy: string } | undefined {
    let real = p
    try {
      real = realpathSync(p)
    } catch {
      // not there: judged as written
    }
    return inBundledSample(real, this.resourcesDirs(), this.settings.dir)
  }

  private resourcesDirs(): string[] {
    return [this.opts.resourcesDir ?? resourcesDir(), resourcesDir({})]
  }

  async listRoots(): Promise<DataRootInfo[]> {
    return Promise.all(this.roots().map((r) => this.rootInfo(r)))
  }

  /**
   * Adds a data root the user chose and remembers it (a root given for this run becomes remembered).
   * It must be an existing folder; stored as its absolute real path.
   */
  async addRoot(input: string): Promise<string> {
    const real = this.writable(await realDir(input))
    const remembered = this.settings.settings.dataRoots
    if (!remembered.includes(real)) {
      await this.settings.update({ dataRoots: [...remembered, real] })
    }
    return real
  }

  /** Adds a root for this run only (not written to the settings file), listed first. */
  async addSessionRoot(input: string): Promise<string> {
    const real = this.writable(await realDir(input))
    if (!this.session.includes(real)) this.session.push(real)
    return real
  }

  /** Forgets a remembered root (one also given for this run stays listed until the run ends); drops a this-run-only root. */
  async removeRoot(root: string): Promise<void> {
    const known = this.requireRoot(root)
    const remembered = this.settings.settings.dataRoots
    if (remembered.includes(known)) {
      await this.settings.update({ dataRoots: remembered.filter((r) => r !== known) })
    } else {
      this.session.splice(this.session.indexOf(known), 1)
    }
  }

  /**
   * The one gate of every folder the workbench may write into (a data root, its users' libraries and memory, a
   * library opened): the sample data bundled with the install (`resources/sample-data`, also under
   * SKILLBENCH_RESOURCES_DIR) is never registered, so no handler writes there, as no CLI command does
   * (cli/bundled-sample.ts). The refusal names its writable copy in the settings folder.
   */
  private writable(real: string): string {
    const where = inBundledSample(real, this.resourcesDirs(), this.settings.dir)
    if (where) throw badRequest(coded('library.bundled_sample_read_only', { path: real, copy: where.copy, sample: where.sample }))
    return real
  }

  /**
   * A known root that may be written (reflected into): one in the bundled sample data, remembered by an older
   * version, is refused with the words that refuse adding it.
   */
  requireWritableRoot(root: string): string {
    const known = this.requireRoot(root)
    const where = this.bundledSample(known)
    if (where) throw badRequest(coded('library.bundled_sample_read_only', { path: known, copy: where.copy, sample: where.sample }))
    return known
  }

  /** Whether a root is in the bundled sample data (listed read-only: nothing reflects into it). */
  isBundledSample(root: string): boolean {
    return this.bundledSample(root) !== undefined
  }

  /** Returns the root if it is one of the known roots, else throws bad_request. */
  requireRoot(root: string): string {
    const resolved = path.resolve(root)
    const known = this.roots().find((r) => r === resolved)
    if (!known) {
      throw badRequest(coded('library.unknown_root', { root }))
    }
    return known
  }

  /** Adds a SKILL.md (or experience) folder the user chose. */
  async openFolder(input: string): Promise<string> {
    const real = this.writable(await realDir(input))
    const opened = this.settings.openedLibraries
    if (!opened.includes(real)) {
      await this.settings.setOpenedLibraries([...opened, real])
    }
    return real
  }

  async listLibraries(): Promise<LibraryInfo[]> {
    const out: LibraryInfo[] = []
    const seen = new Set<string>()
    const samples = sampleRoots(this.settings.dir, this.opts.resourcesDir ?? path.resolve('resources'))
    const sample = (p: string): { sample?: true } => (isInsideAny(p, samples) ? { sample: true } : {})
    // a root or a folder in the bundled sample data, remembered by an older version, is never registered: its
    // libraries are not listed, so no handler writes there (the root's row says why, rootInfo)
    for (const root of this.roots().filter((r) => !this.isBundledSample(r))) {
      const { users } = (await isDir(root)) ? await discoverUsers(root) : { users: [] }
      for (const user of users) {
        const libPath = userLibraryPath(root, user)
        if (seen.has(libPath)) {
          continue
        }
        seen.add(libPath)
        out.push({ path: libPath, label: `${user} · ${path.basename(root)}`, root, user, origin: 'root', exists: await isDir(libPath), ...sample(libPath) })
      }
    }
    const opened = this.settings.openedLibraries.filter((p) => !seen.has(p) && !this.isBundledSample(p))
    const labels = distinctLabels(opened, out.map((l) => l.label))
    for (const [i, p] of opened.entries()) {
      out.push({ path: p, label: labels[i]!, origin: 'opened', exists: await isDir(p), ...sample(p) })
    }
    return out
  }

  /** Returns the library if the workbench knows it, else throws bad_request. */
  async requireLibrary(library: string): Promise<LibraryInfo> {
    const resolved = path.resolve(library)
    const found = (await this.listLibraries()).find((l) => l.path === resolved)
    if (!found) {
      throw badRequest(coded('library.unknown', { library }))
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
    throw badRequest(coded('path.not_absolute', { path: input }))
  }
  let real: string
  try {
    real = await fsp.realpath(input)
  } catch {
    throw badRequest(coded('path.folder_not_found', { path: input }))
  }
  if (!(await isDir(real))) {
    throw badRequest(coded('path.not_folder', { path: input }))
  }
  return real
}
