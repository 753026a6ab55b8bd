/**
 * The manifest of a deploy target (`<target>/.skillbench-deploy.json`): every skill folder Skillbench placed
 * there, from which library and skill, and the sha256 of each file it wrote. What is not in it was not placed by
 * Skillbench and is never touched. Dot-named, like the lock and the intent beside it, so agents skip them
 * (Codex ignores dot entries; Claude Code reads only `<name>/SKILL.md`). Pure.
 */
import { CodedError } from '../../shared/api-error'
import { coded, type CodedText } from '../../shared/error-codes'

export const MANIFEST_FILE = '.skillbench-deploy.json'
/** A deploy in progress: what it is about to do, so a crash can be rolled back (see run.ts). */
export const INTENT_FILE = '.skillbench-deploy.tx.json'
/** Held while a deploy or its undo changes the target (two deploys into one folder never interleave). */
export const LOCK_FILE = '.skillbench-deploy.lock'

export interface ManifestEntry {
  /** Real path of the library the skill came from. */
  library: string
  skill_id: string
  title: string
  /** The skill file in that library when it was deployed. */
  source: string
  /** File path inside the skill folder → sha256 of the bytes written. */
  files: Record<string, string>
  /** Permission bits of files that are not 0644 (scripts). */
  modes?: Record<string, number>
  deployed_at: string
}

export interface DeployManifest {
  version: 1
  generator: 'skillbench'
  /** Folder name in the target → what was placed there. */
  skills: Record<string, ManifestEntry>
}

/** A manifest that cannot be trusted: deploying blind could touch files Skillbench did not place. */
export class ManifestError extends CodedError {
  constructor(code: 'malformed', message: CodedText) {
    super(code, message)
    this.name = 'ManifestError'
  }
}

export function emptyManifest(): DeployManifest {
  return { version: 1, generator: 'skillbench', skills: {} }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Reads a manifest's text (null = none yet). An unreadable one is an error: deploying blind could touch files we did not place. */
export function parseManifest(text: string | null): DeployManifest {
  if (text === null) return emptyManifest()
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new ManifestError('malformed', coded('deploy.manifest_not_json', { file: MANIFEST_FILE, detail: (err as Error).message }))
  }
  if (!isRecord(data) || data.version !== 1 || data.generator !== 'skillbench' || !isRecord(data.skills)) {
    throw new ManifestError('malformed', coded('deploy.manifest_foreign', { file: MANIFEST_FILE }))
  }
  const skills: Record<string, ManifestEntry> = {}
  for (const [name, e] of Object.entries(data.skills)) {
    if (!isRecord(e) || typeof e.library !== 'string' || typeof e.skill_id !== 'string' || !isRecord(e.files)) continue
    if (!/^[^/\\]+$/.test(name) || name === '.' || name === '..') continue
    const files: Record<string, string> = {}
    for (const [rel, hash] of Object.entries(e.files)) if (typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash)) files[rel] = hash
    const modes: Record<string, number> = {}
    if (isRecord(e.modes)) for (const [rel, mode] of Object.entries(e.modes)) if (typeof mode === 'number') modes[rel] = mode
    skills[name] = {
      library: e.library,
      skill_id: e.skill_id,
      title: typeof e.title === 'string' ? e.title : name,
      source: typeof e.source === 'string' ? e.source : '',
      files,
      ...(Object.keys(modes).length > 0 ? { modes } : {}),
      deployed_at: typeof e.deployed_at === 'string' ? e.deployed_at : ''
    }
  }
  return { version: 1, generator: 'skillbench', skills }
}

function sortedObject<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k] as T]))
}

/** The manifest's bytes: keys sorted, so the same state always writes the same file. */
export function serializeManifest(m: DeployManifest): string {
  const skills: Record<string, ManifestEntry> = {}
  for (const name of Object.keys(m.skills).sort()) {
    const e = m.skills[name]!
    skills[name] = { ...e, files: sortedObject(e.files), ...(e.modes && Object.keys(e.modes).length > 0 ? { modes: sortedObject(e.modes) } : {}) }
    if (!e.modes || Object.keys(e.modes).length === 0) delete skills[name].modes
  }
  return JSON.stringify({ version: 1, generator: 'skillbench', skills }, null, 1) + '\n'
}
