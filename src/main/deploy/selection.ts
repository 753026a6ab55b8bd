/**
 * What each agent sees: deploy profiles (named sets of skills bound to targets) and skills disabled per target,
 * kept in the library's `deploy-profiles.json` so a team shares them. A selector names skills by name (`pdf`,
 * `name:pdf`), tag (`tag:backend`: front-matter `tags`, or `metadata.tags`), collection (`collection:ops`: the
 * front-matter `collection` or `category`, the library folder a skill is nested in, or the repository it was
 * installed from) or `*` for all. Pure.
 */
import path from 'node:path'
import { parseSkillText } from '../store/skill-file'
import type { LibrarySkill } from './render'
import { CodedError } from '../../shared/api-error'
import { coded, type CodedText } from '../../shared/error-codes'

export const DEPLOY_CONFIG_FILE = 'deploy-profiles.json'
export const DEPLOY_CONFIG_VERSION = 1

export interface DeployProfile {
  /** Where the profile deploys (`--to` values: `codex`, `claude-project:~/api`, a folder…). */
  targets: string[]
  /** Selectors of the skills it takes; `*` (or none) = every active skill. */
  skills: string[]
  /** Selectors of skills it leaves out (wins over `skills`). */
  except: string[]
}

export interface DeployConfig {
  profiles: Record<string, DeployProfile>
  /** Target (as given to `--to`) → names of the skills not deployed there. */
  disabled: Record<string, string[]>
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const SELECTOR = /^(\*|(name|tag|collection):.{1,200}|[^:\s][^\n]{0,199})$/

export function emptyDeployConfig(): DeployConfig {
  return { profiles: {}, disabled: {} }
}

function stringList(v: unknown, where: () => CodedText): string[] {
  if (v === undefined) return []
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x.trim() === '')) throw new CodedError('invalid', where())
  return (v as string[]).map((x) => x.trim())
}

/** Parses the file's text; throws saying what is wrong and where. Pure. */
export function parseDeployConfig(text: string): DeployConfig {
  const file = DEPLOY_CONFIG_FILE
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new CodedError('invalid', coded('deployjson.not_json', { file, detail: (err as Error).message }), { cause: err })
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new CodedError('invalid', coded('deployjson.not_object', { file }))
  const obj = raw as Record<string, unknown>
  if (obj.version !== DEPLOY_CONFIG_VERSION) throw new CodedError('invalid', coded('deployjson.bad_version', { file, version: String(JSON.stringify(obj.version)), expected: DEPLOY_CONFIG_VERSION }))
  const out = emptyDeployConfig()
  const profiles = obj.profiles ?? {}
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) throw new CodedError('invalid', coded('deployjson.profiles_not_object', { file }))
  for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
    if (!PROFILE_NAME.test(name)) throw new CodedError('invalid', coded('deployjson.bad_profile_name', { file, name: JSON.stringify(name) }))
    if (typeof p !== 'object' || p === null || Array.isArray(p)) throw new CodedError('invalid', coded('deployjson.profile_not_object', { file, name }))
    const r = p as Record<string, unknown>
    const list = (field: 'targets' | 'skills' | 'except'): string[] => stringList(r[field], () => coded('deployjson.profile_list', { file, name, field }))
    const profile = { targets: list('targets'), skills: list('skills'), except: list('except') }
    for (const s of [...profile.skills, ...profile.except]) if (!SELECTOR.test(s)) throw new CodedError('invalid', coded('deployjson.bad_selector', { file, name, selector: JSON.stringify(s) }))
    out.profiles[name] = profile
  }
  const disabled = obj.disabled ?? {}
  if (typeof disabled !== 'object' || disabled === null || Array.isArray(disabled)) throw new CodedError('invalid', coded('deployjson.disabled_not_object', { file }))
  for (const [target, names] of Object.entries(disabled as Record<string, unknown>)) {
    if (target.trim() === '') throw new CodedError('invalid', coded('deployjson.disabled_empty_target', { file }))
    out.disabled[target] = stringList(names, () => coded('deployjson.disabled_list', { file, target }))
  }
  return out
}

/** The file's text: fixed key order, profiles and targets sorted, lists as given (disabled sorted), final newline. Pure. */
export function serializeDeployConfig(config: DeployConfig): string {
  const profiles: Record<string, DeployProfile> = {}
  for (const name of Object.keys(config.profiles).sort()) {
    const p = config.profiles[name]!
    profiles[name] = { targets: [...p.targets], skills: [...p.skills], except: [...p.except] }
  }
  const disabled: Record<string, string[]> = {}
  for (const target of Object.keys(config.disabled).sort()) {
    const names = [...new Set(config.disabled[target])].sort()
    if (names.length > 0) disabled[target] = names
  }
  return `${JSON.stringify({ version: DEPLOY_CONFIG_VERSION, profiles, disabled }, null, 2)}\n`
}

/** What a skill can be selected by. */
export interface SkillFacets {
  /** Deployed name, library name, title, id. */
  names: string[]
  tags: string[]
  collections: string[]
}

function texts(v: unknown): string[] {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean)
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string').map((s) => s.trim()).filter(Boolean)
  return []
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}

/** The names, tags and collections of a library skill (see the module comment). */
export function skillFacets(s: LibrarySkill, deployedName: string): SkillFacets {
  const parsed = parseSkillText(s.text)
  const fm = parsed.ok ? parsed.file.data : {}
  const md = record(fm.metadata)
  const sb = record(md.skillbench)
  const tags = [...texts(fm.tags), ...texts(md.tags)]
  const collections = [...texts(fm.collection), ...texts(fm.category), ...texts(md.collection), ...texts(md.category)]
  const dirs = s.skill.path.split('/').slice(0, -1)
  if (s.skill.format === 'skill-md' ? dirs.length > 1 : dirs.length > 0) collections.push(dirs[0]!)
  const repo = record(sb.source).repo
  if (typeof repo === 'string' && repo !== '') collections.push(path.posix.basename(repo.replace(/\\/g, '/').replace(/\/+$/, '')).replace(/\.git$/, ''))
  const names = [deployedName, s.skill.name, s.skill.title, s.skill.skill_id].filter((x): x is string => typeof x === 'string' && x !== '')
  return { names, tags, collections }
}

/** True when the selector names the skill. Tags and collections compare without case. Pure. */
export function selectorMatches(selector: string, f: SkillFacets): boolean {
  if (selector === '*') return true
  const lower = (xs: string[]): string[] => xs.map((x) => x.toLowerCase())
  const colon = selector.indexOf(':')
  const kind = colon > 0 ? selector.slice(0, colon) : ''
  const value = colon > 0 ? selector.slice(colon + 1) : selector
  if (kind === 'tag') return lower(f.tags).includes(value.toLowerCase())
  if (kind === 'collection') return lower(f.collections).includes(value.toLowerCase())
  return f.names.includes(kind === 'name' ? value : selector)
}

/** True when the profile takes the skill: some `skills` selector (or none given) and no `except` one. Pure. */
export function profileTakes(profile: DeployProfile, f: SkillFacets): boolean {
  const included = profile.skills.length === 0 || profile.skills.some((s) => selectorMatches(s, f))
  return included && !profile.except.some((s) => selectorMatches(s, f))
}

/** The disabled names that apply to a target: every `disabled` key that resolves to the same folder. Pure. */
export function disabledFor(config: DeployConfig, targetDir: string, resolveDir: (spec: string) => string | null): Set<string> {
  const out = new Set<string>()
  for (const [spec, names] of Object.entries(config.disabled)) {
    if (resolveDir(spec) === targetDir) for (const n of names) out.add(n)
  }
  return out
}

/** One skill a report suggests disabling. */
export interface BudgetSuggestion {
  name: string
  title: string
  /** Characters of name + description it takes in the listing. */
  chars: number
  /** Uses in the usage index (0 = none seen). */
  uses: number
  last_used_at: string | null
}

/**
 * Over the budget: the skills to disable to get under it, least used first (then the oldest last use, then the
 * longest listing). Only skills this library places are suggested. Pure.
 */
export function budgetSuggestions(ours: readonly Omit<BudgetSuggestion, 'uses' | 'last_used_at'>[], usage: ReadonlyMap<string, { uses: number; last_used_at: string | null }>, total: number, limit: number): BudgetSuggestion[] {
  if (total <= limit) return []
  const rows = ours.map((s) => ({ ...s, uses: usage.get(s.name)?.uses ?? 0, last_used_at: usage.get(s.name)?.last_used_at ?? null }))
  rows.sort((a, b) => a.uses - b.uses || (a.last_used_at ?? '').localeCompare(b.last_used_at ?? '') || b.chars - a.chars || a.name.localeCompare(b.name))
  const out: BudgetSuggestion[] = []
  let left = total
  for (const r of rows) {
    if (left <= limit) break
    out.push(r)
    left -= r.chars
  }
  return out
}
