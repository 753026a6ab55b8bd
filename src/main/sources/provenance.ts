/**
 * Where an installed skill came from, kept in its SKILL.md under `metadata.skillbench.source` (never a new
 * top-level key, so the file stays valid for every agent). Pure.
 */
import type { RiskRecord } from '../audit/gate'
import { parseSkillText, rewriteSkillFile } from '../store/skill-file'

export interface SkillSource {
  /** The repository as given (a URL without credentials, or a local repository's path). */
  repo: string
  /** The branch or tag asked for (or the commit). */
  ref: string
  /** The commit the files came from. */
  commit: string
  /** The skill's folder inside the repository ('' = its root). */
  path: string
  /** High audit findings a person allowed in, and who (`install --allow-risk`). */
  risk?: RiskRecord
}

export const SOURCE_KEY_PATH = ['metadata', 'skillbench', 'source'] as const

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The provenance in a parsed front matter, or null when the skill was not installed from a source. */
export function provenanceOf(data: Record<string, unknown>): SkillSource | null {
  const md = data.metadata
  const sb = isRecord(md) ? md.skillbench : undefined
  const src = isRecord(sb) ? sb.source : undefined
  if (!isRecord(src)) return null
  const { repo, ref, commit } = src
  const p = src.path ?? ''
  if (typeof repo !== 'string' || typeof ref !== 'string' || typeof commit !== 'string' || typeof p !== 'string' || !/^[0-9a-f]{7,64}$/.test(commit)) return null
  const risk = isRecord(src.risk) && typeof src.risk.allowed_by === 'string' && Array.isArray(src.risk.findings) ? (src.risk as unknown as RiskRecord) : undefined
  return { repo, ref, commit, path: p, ...(risk ? { risk } : {}) }
}

/** The provenance of a skill file's text (null when it has none or does not parse). */
export function provenanceOfText(text: string): SkillSource | null {
  const parsed = parseSkillText(text)
  return parsed.ok ? provenanceOf(parsed.file.data) : null
}

/** The text with its provenance set (the rest of the front matter kept as written). Throws when it does not parse. */
export function withProvenance(text: string, source: SkillSource): string {
  const parsed = parseSkillText(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return rewriteSkillFile(parsed.file, [{ path: [...SOURCE_KEY_PATH], value: { repo: source.repo, ref: source.ref, commit: source.commit, path: source.path, ...(source.risk ? { risk: source.risk } : {}) } }])
}
