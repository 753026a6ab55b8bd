/**
 * Changing what each agent sees: enable / disable skills for a target, set or remove a deploy profile. Names and
 * targets are checked against the library and the known target forms before anything is written; the file is
 * changed under the library lock (deploy-config.ts). Shared by the CLI and the app.
 */
import { openLibrary } from '../store/library'
import { StoreError } from '../store/types'
import { changeDeployConfig } from './deploy-config'
import { librarySkills } from './run'
import { wantedName, type LibrarySkill } from './render'
import { PROFILE_NAME, type DeployConfig, type DeployProfile } from './selection'
import { absoluteTargetSpec, relativeTargetPath, resolveTarget } from './targets'
import { coded } from '../../shared/error-codes'
import { reasonOf } from '../../shared/api-error'

export interface SelectionContext {
  env: NodeJS.ProcessEnv
  cwd: string
}

function targetDir(spec: string, ctx: SelectionContext): string {
  try {
    return resolveTarget(spec, ctx.env, ctx.cwd).dir
  } catch (err) {
    throw new StoreError('invalid_input', coded('deploy.bad_target', { reason: reasonOf(err) }))
  }
}

function aliases(s: LibrarySkill): string[] {
  return [wantedName(s).name, s.skill.name, s.skill.title, s.skill.skill_id].filter((x): x is string => typeof x === 'string' && x !== '')
}

/**
 * Disables (`enabled: false`) or enables skills for one target. A disabled skill is recorded under its deploy
 * name; the next deploy into that target removes the copy Skillbench placed there, and deploys it again once it
 * is enabled. Unknown names are refused (nothing written); enabling a skill that is not disabled changes nothing.
 */
export async function setSkillsEnabled(library: string, to: string, names: readonly string[], enabled: boolean, ctx: SelectionContext): Promise<DeployConfig> {
  const dir = targetDir(to, ctx)
  const lib = await openLibrary(library)
  const { skills } = await librarySkills(lib)
  const matched = names.map((n) => ({ n, skills: skills.filter((s) => aliases(s).includes(n)) }))
  const unknown = matched.filter((m) => m.skills.length === 0).map((m) => m.n)
  if (!enabled && unknown.length > 0) throw new StoreError('not_found', coded('deploy.none_disabled', { names: unknown.map((u) => JSON.stringify(u)).join(', '), root: lib.root }))
  return changeDeployConfig(
    lib.root,
    (config) => {
      // one key per folder: `codex` and `~/.codex/skills` are the same target
      const key = Object.keys(config.disabled).find((k) => {
        try {
          return resolveTarget(k, ctx.env, ctx.cwd).dir === dir
        } catch {
          return false
        }
      }) ?? to.trim()
      const current = new Set(config.disabled[key] ?? [])
      for (const m of matched) {
        if (enabled) {
          current.delete(m.n)
          for (const s of m.skills) for (const a of aliases(s)) current.delete(a)
        } else for (const s of m.skills) current.add(wantedName(s).name)
      }
      if (current.size > 0) config.disabled[key] = [...current].sort()
      else delete config.disabled[key]
    },
    `${enabled ? 'enabling' : 'disabling'} skills for ${to}`
  )
}

/**
 * Refuses a profile target that is a relative path: deploy-profiles.json is shared, and such a path would name a
 * different folder from every folder deploy runs in. The error says the absolute path it names from `cwd` now.
 */
export function refuseRelativeTargets(name: string, targets: readonly string[], cwd: string): void {
  for (const t of targets) {
    if (relativeTargetPath(t) === null) continue
    throw new StoreError('invalid_input', coded('deploy.profile_relative_target', { name, target: JSON.stringify(t.trim()), absolute: absoluteTargetSpec(t, cwd) }))
  }
}

/** Sets a profile (targets checked: known forms, absolute or `~/` paths; selectors kept as given) or removes it with `null`. */
export async function setDeployProfile(library: string, name: string, profile: DeployProfile | null, ctx: SelectionContext): Promise<DeployConfig> {
  if (!PROFILE_NAME.test(name)) throw new StoreError('invalid_input', coded('deploy.bad_profile_name', { name: JSON.stringify(name) }))
  if (profile) {
    if (profile.targets.length === 0) throw new StoreError('invalid_input', coded('deploy.profile_needs_target', { name }))
    for (const t of profile.targets) targetDir(t, ctx)
    refuseRelativeTargets(name, profile.targets, ctx.cwd)
    for (const s of [...profile.skills, ...profile.except]) {
      if (/^(tag|collection|name):$/.test(s) || s.trim() === '') throw new StoreError('invalid_input', coded('deploy.bad_selector', { selector: JSON.stringify(s) }))
    }
  }
  const lib = await openLibrary(library)
  return changeDeployConfig(
    lib.root,
    (config) => {
      if (profile) config.profiles[name] = { targets: [...new Set(profile.targets.map((t) => t.trim()))], skills: [...new Set(profile.skills)], except: [...new Set(profile.except)] }
      else if (!config.profiles[name]) throw new StoreError('not_found', coded('deploy.no_profile', { profile: JSON.stringify(name) }))
      else delete config.profiles[name]
    },
    `${profile ? 'setting' : 'removing'} deploy profile ${name}`
  )
}
