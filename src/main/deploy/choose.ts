/**
 * Which of the library's skills a deploy into one target takes: `--skill` names, a profile's selectors, minus the
 * skills disabled for that target (deploy-profiles.json). The scope says which placed copies the plan may remove:
 * with a profile or without `--skill`, every copy this library placed there, so a skill left out or disabled is
 * removed from the folder (only a copy Skillbench placed, unchanged since) and comes back when taken again.
 */
import type { DeployBudget } from '../../shared/api-deploy'
import { StoreError } from '../store/types'
import { readDeployConfig } from './deploy-config'
import type { LibrarySkill, RenderedSkill } from './render'
import { budgetSuggestions, disabledFor, profileTakes, skillFacets, type BudgetSuggestion } from './selection'
import { resolveTarget, type DeployTarget } from './targets'
import { coded } from '../../shared/error-codes'

/** Uses per skill id from the usage index (`uses`, last use); skills absent count as never used. */
export type UsageLookup = () => Promise<ReadonlyMap<string, { uses: number; last_used_at: string | null }>>

export interface Choice {
  chosen: LibrarySkill[]
  /** Skill ids whose placed copies the plan considers (null = all of this library's). */
  scope: Set<string> | null
  /** Deployed names left out because they are disabled for this target. */
  disabled: string[]
  /** Deployed names of active skills the profile does not take. */
  leftOut: string[]
}

function skillMatches(s: LibrarySkill, name: string, wanted: string): boolean {
  return wanted === name || wanted === s.skill.skill_id || wanted === s.skill.name || wanted === s.skill.title
}

/** The skills for one target (see the module comment); throws not_found for an unknown `--skill` or profile. */
export async function chooseSkills(input: {
  root: string
  skills: readonly LibrarySkill[]
  names: ReadonlyMap<string, string>
  wanted?: readonly string[]
  profile?: string
  target: DeployTarget
  env: NodeJS.ProcessEnv
  cwd: string
}): Promise<Choice> {
  const { skills, names } = input
  const config = await readDeployConfig(input.root)
  const nameOf = (s: LibrarySkill): string => names.get(s.skill.skill_id)!
  let chosen = [...skills]
  let leftOut: string[] = []
  if (input.profile !== undefined) {
    const profile = config.profiles[input.profile]
    if (!profile) throw new StoreError('not_found', coded('deploy.no_profile_in', { profile: JSON.stringify(input.profile), root: input.root }))
    const takes = new Set(chosen.filter((s) => profileTakes(profile, skillFacets(s, nameOf(s)))))
    leftOut = chosen.filter((s) => !takes.has(s)).map(nameOf).sort()
    chosen = chosen.filter((s) => takes.has(s))
  }
  const wanted = input.wanted ?? []
  for (const w of wanted) {
    if (!skills.some((s) => skillMatches(s, nameOf(s), w))) throw new StoreError('not_found', coded('deploy.no_skill_named', { name: JSON.stringify(w), root: input.root }))
  }
  if (wanted.length > 0) chosen = chosen.filter((s) => wanted.some((w) => skillMatches(s, nameOf(s), w)))
  const scope = wanted.length > 0 && input.profile === undefined ? new Set(chosen.map((s) => s.skill.skill_id)) : null
  const off = disabledFor(config, input.target.dir, (spec) => {
    try {
      return resolveTarget(spec, input.env, input.cwd).dir
    } catch {
      return null
    }
  })
  const disabled = chosen.filter((s) => [...off].some((n) => skillMatches(s, nameOf(s), n)))
  return { chosen: chosen.filter((s) => !disabled.includes(s)), scope, disabled: disabled.map(nameOf).sort(), leftOut }
}

/** The library's own record of uses (fetch count, last use): what the report goes by when no usage index is given. */
export function libraryUsage(skills: readonly LibrarySkill[]): UsageLookup {
  return () => Promise.resolve(new Map(skills.map((s) => [s.skill.skill_id, { uses: s.skill.fetch_count, last_used_at: s.skill.last_used_at }])))
}

/** What to disable to get under the budget, least used first (only when over it). */
export async function suggestDisabling(budget: DeployBudget, desired: ReadonlyMap<string, RenderedSkill>, usage: UsageLookup): Promise<BudgetSuggestion[]> {
  if (budget.limit === null || budget.chars <= budget.limit) return []
  const byId = await usage()
  const byName = new Map([...desired.values()].map((d) => [d.name, byId.get(d.skill_id) ?? { uses: 0, last_used_at: null }]))
  const ours = [...desired.values()].map((d) => ({ name: d.name, title: d.title, chars: d.metaChars }))
  return budgetSuggestions(ours, byName, budget.chars, budget.limit)
}
