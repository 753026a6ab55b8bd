/**
 * What a deploy does to one target, decided from the library's skills (as rendered), the target's manifest and
 * the target folders as they are. Only folders the manifest says Skillbench placed (from this library) are ever
 * written or removed; a placed copy that was changed there is left in place unless every change made to it is
 * already in the library. The same plan is shown by `--dry-run` and carried out by a real run. Pure.
 */
import type { DeployWhy } from '../../shared/api-deploy'
import type { DeployManifest, ManifestEntry } from './manifest'
import { changedFields, fieldsOf, type Files } from './drift'
import type { DeployFile, RenderedSkill } from './render'

/** A skill folder of the target as it is now. */
export interface FolderState {
  exists: boolean
  /** The folder (or something in it) is a symbolic link or a special file: never written through. */
  linked: boolean
  /** Regular files: path inside the folder → bytes. */
  files: Map<string, Buffer>
  hashes: Map<string, string>
}

export type DeployActionKind = 'create' | 'update' | 'unchanged' | 'adopt' | 'remove' | 'forget' | 'drifted' | 'unmanaged' | 'refused'

export interface FileAction {
  path: string
  change: 'write' | 'update' | 'remove'
}

/** Why a skill got its action, when it is not obvious (a code; `WHY_TEXT` says it in English). */
export type { DeployWhy }

export const WHY_TEXT: Record<DeployWhy, string> = {
  link: 'the folder is (or holds) a symbolic link: never written through',
  'other-library': 'placed by Skillbench from another library: left as it is',
  'not-ours': 'a folder of this name exists that Skillbench did not place: left as it is',
  gone: 'already gone from the target',
  'retired-drifted': 'retired in the library, but changed here since it was deployed: left in place',
  rewritten: 'it had been removed from the target: written again',
  'same-change': 'changed here the same way as in the library: now in sync',
  'already-learned': 'the changes made here are already in the library',
  drifted: 'changed here since it was deployed: left in place',
  unproven: 'the manifest names it, but the library never kept the files it says were placed: not proven ours, left as it is',
  'empty-folder': 'an empty folder of this name was there (an interrupted deploy can leave one): the skill is written into it'
}

export interface PlannedSkill {
  name: string
  action: DeployActionKind
  skill_id?: string
  title?: string
  /** Files written, replaced or removed. */
  files: FileAction[]
  /** Why, when it is not obvious (left alone, re-created, already learned…). */
  why?: DeployWhy
  /** Drifted copies whose changes can go back to the library. */
  learn?: boolean
}

/** One file operation: sha256 before/after (null = absent) and the bytes to write. */
export interface PlannedOp {
  rel: string
  before: string | null
  after: DeployFile | null
}

export interface DeployPlan {
  skills: PlannedSkill[]
  ops: PlannedOp[]
  manifest: DeployManifest
}

export interface PlanInput {
  library: string
  /** The skills to deploy (already filtered by --skill), by folder name. */
  desired: ReadonlyMap<string, RenderedSkill>
  /** Skill ids in scope: manifest entries of this library outside it are left as they are (null = all). */
  scope: ReadonlySet<string> | null
  manifest: DeployManifest
  /** The state of every folder named in the manifest or in `desired`. */
  folders: ReadonlyMap<string, FolderState>
  /** The bytes of a file as deployed (from the blob store), by sha256; null when unknown. */
  blob: (hash: string) => Buffer | null
  now: string
}

const ABSENT: FolderState = { exists: false, linked: false, files: new Map(), hashes: new Map() }

function sameHashes(a: ReadonlyMap<string, string>, b: Record<string, string> | ReadonlyMap<string, string>): boolean {
  const bm = b instanceof Map ? b : new Map(Object.entries(b))
  return a.size === bm.size && [...a].every(([k, v]) => bm.get(k) === v)
}

function renderedHashes(d: RenderedSkill): Map<string, string> {
  return new Map([...d.files].map(([rel, f]) => [rel, f.hash]))
}

function renderedFiles(d: RenderedSkill): Files {
  return new Map([...d.files].map(([rel, f]) => [rel, f.bytes]))
}

/** The files of a placed copy as they were deployed, when every one of them is still known. */
export function deployedFiles(entry: ManifestEntry, blob: (hash: string) => Buffer | null): Map<string, Buffer> | null {
  const out = new Map<string, Buffer>()
  for (const [rel, hash] of Object.entries(entry.files)) {
    const bytes = blob(hash)
    if (!bytes) return null
    out.set(rel, bytes)
  }
  return out
}

function entryFor(input: PlanInput, d: RenderedSkill, previous: ManifestEntry | undefined, touched: boolean): ManifestEntry {
  const modes: Record<string, number> = {}
  for (const [rel, f] of d.files) if (f.mode !== 0o644) modes[rel] = f.mode
  return {
    library: input.library,
    skill_id: d.skill_id,
    title: d.title,
    source: d.source,
    files: Object.fromEntries(renderedHashes(d)),
    ...(Object.keys(modes).length > 0 ? { modes } : {}),
    deployed_at: touched || !previous ? input.now : previous.deployed_at
  }
}

/** Decides every skill's action and the file operations (see the module comment). */
export function planDeploy(input: PlanInput): DeployPlan {
  const skills: PlannedSkill[] = []
  const ops: PlannedOp[] = []
  const manifest: DeployManifest = { version: 1, generator: 'skillbench', skills: { ...input.manifest.skills } }
  const names = new Set<string>([...input.desired.keys()])
  for (const [name, e] of Object.entries(input.manifest.skills)) {
    if (e.library === input.library && (input.scope === null || input.scope.has(e.skill_id))) names.add(name)
  }
  for (const name of [...names].sort()) {
    const d = input.desired.get(name)
    const m = input.manifest.skills[name]
    const f = input.folders.get(name) ?? ABSENT
    const base = { name, ...(d ? { skill_id: d.skill_id, title: d.title } : m ? { skill_id: m.skill_id, title: m.title } : {}) }
    if (f.linked) {
      skills.push({ ...base, action: 'refused', files: [], why: 'link' })
      continue
    }
    if (m && m.library !== input.library) {
      skills.push({ ...base, action: 'unmanaged', files: [], why: 'other-library' })
      continue
    }
    if (!m) {
      if (!d) continue
      // an empty folder holds nothing of anyone's: taken as free (a killed deploy of an older version left such)
      const empty = f.exists && f.files.size === 0
      if (f.exists && !empty) {
        skills.push({ ...base, action: 'unmanaged', files: [], why: 'not-ours' })
        continue
      }
      const files: FileAction[] = []
      for (const [rel, file] of d.files) {
        ops.push({ rel: `${name}/${rel}`, before: null, after: file })
        files.push({ path: rel, change: 'write' })
      }
      manifest.skills[name] = entryFor(input, d, undefined, true)
      skills.push({ ...base, action: 'create', files, ...(empty ? { why: 'empty-folder' as const } : {}) })
      continue
    }
    const drifted = !sameHashes(f.hashes, m.files)
    if (!d) {
      // Retired in the library (or no longer deployed): removed only when the copy is as it was placed.
      if (!f.exists) {
        delete manifest.skills[name]
        skills.push({ ...base, action: 'forget', files: [], why: 'gone' })
      } else if (drifted) {
        skills.push({ ...base, action: 'drifted', files: [], why: 'retired-drifted' })
      } else if (!deployedFiles(m, input.blob)) {
        // The manifest says we placed it, but the library never kept those bytes: not proven ours, never removed.
        skills.push({ ...base, action: 'unmanaged', files: [], why: 'unproven' })
      } else {
        const files: FileAction[] = []
        for (const rel of [...f.hashes.keys()].sort()) {
          ops.push({ rel: `${name}/${rel}`, before: f.hashes.get(rel)!, after: null })
          files.push({ path: rel, change: 'remove' })
        }
        delete manifest.skills[name]
        skills.push({ ...base, action: 'remove', files })
      }
      continue
    }
    const want = renderedHashes(d)
    // A copy the library never kept the bytes of (a read-only library's deploy) is not proven ours, and is left
    // alone, unless it already is exactly what would be written: then nothing changes there, it is in sync.
    if (f.exists && !sameHashes(f.hashes, want) && !deployedFiles(m, input.blob)) {
      skills.push({ ...base, action: 'unmanaged', files: [], why: 'unproven' })
      continue
    }
    let overwrite = !drifted
    let why: DeployWhy | undefined
    if (drifted) {
      if (!f.exists) {
        overwrite = true
        why = 'rewritten'
      } else if (sameHashes(f.hashes, want)) {
        manifest.skills[name] = entryFor(input, d, m, true)
        skills.push({ ...base, action: 'adopt', files: [], why: 'same-change' })
        continue
      } else {
        const placed = deployedFiles(m, input.blob)
        const placedFields = placed ? fieldsOf(placed) : null
        const curFields = fieldsOf(f.files)
        const wantFields = fieldsOf(renderedFiles(d))
        const edits = placedFields && curFields ? changedFields(placedFields, curFields) : null
        const covered = edits !== null && wantFields !== null && edits.every((k) => wantFields.get(k) === curFields!.get(k))
        if (covered) {
          overwrite = true
          why = 'already-learned'
        } else {
          skills.push({ ...base, action: 'drifted', files: [], why: 'drifted', learn: true })
          continue
        }
      }
    }
    if (overwrite && sameHashes(f.hashes, want)) {
      manifest.skills[name] = entryFor(input, d, m, false)
      skills.push({ ...base, action: 'unchanged', files: [] })
      continue
    }
    const files: FileAction[] = []
    for (const [rel, file] of d.files) {
      const now = f.hashes.get(rel) ?? null
      if (now === file.hash) continue
      ops.push({ rel: `${name}/${rel}`, before: now, after: file })
      files.push({ path: rel, change: now === null ? 'write' : 'update' })
    }
    for (const rel of [...f.hashes.keys()].sort()) {
      if (d.files.has(rel)) continue
      ops.push({ rel: `${name}/${rel}`, before: f.hashes.get(rel)!, after: null })
      files.push({ path: rel, change: 'remove' })
    }
    manifest.skills[name] = entryFor(input, d, m, true)
    skills.push({ ...base, action: 'update', files, ...(why ? { why } : {}) })
  }
  return { skills, ops, manifest }
}
