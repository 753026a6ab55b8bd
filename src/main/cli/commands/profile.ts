import type { DeployResult } from '../../../shared/api-deploy'
import { readDeployConfig } from '../../deploy/deploy-config'
import { budgetMessage, deploy } from '../../deploy/run'
import { refuseRelativeTargets, setDeployProfile } from '../../deploy/selection-service'
import { DEPLOY_CONFIG_FILE, type DeployProfile } from '../../deploy/selection'
import { openLibrary } from '../../store/library'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand, type CliIo } from '../common'
import { usageIndexLookup } from '../usage-lookup'
import { coded } from '../../../shared/error-codes'
import { say } from '../lang'

const OPTIONS = {
  ...LIBRARY_OPTIONS,
  to: { type: 'string', multiple: true },
  skill: { type: 'string', multiple: true },
  except: { type: 'string', multiple: true },
  delete: { type: 'boolean', default: false }
} as const

function describe(p: DeployProfile): string {
  return `skills: ${p.skills.length > 0 ? p.skills.join(', ') : '* (all)'}${p.except.length > 0 ? `; except: ${p.except.join(', ')}` : ''}`
}

/** What the profile puts in each of its targets now (dry runs: nothing is written), with the budget of each. */
async function showProfile(library: string, name: string, io: CliIo): Promise<{ name: string; profile: DeployProfile; targets: DeployResult[] }> {
  const root = (await openLibrary(library)).root
  const config = await readDeployConfig(root)
  const profile = config.profiles[name]
  if (!profile) throw new UsageError(coded('deploy.no_profile_in', { profile: JSON.stringify(name), root }))
  refuseRelativeTargets(name, profile.targets, io.cwd)
  const usage = usageIndexLookup(root, io)
  const targets: DeployResult[] = []
  for (const to of profile.targets) targets.push(await deploy({ library: root, to, profile: name, dryRun: true, cwd: io.cwd, env: io.env, usage }))
  return { name, profile, targets }
}

function selectedNames(r: DeployResult): string[] {
  return r.skills.filter((s) => s.action !== 'remove' && s.action !== 'forget' && s.action !== 'unmanaged' && s.action !== 'refused' && s.skill_id).map((s) => s.name)
}

export const command: CliCommand = {
  name: 'profile',
  options: OPTIONS,
  usage: [
    'skillbench profile list --library DIR [--json]',
    '       skillbench profile show NAME --library DIR [--json]',
    '       skillbench profile set NAME --to TARGET... [--skill NAME|tag:TAG|collection:NAME|*]... [--except SELECTOR]... --library DIR',
    '       skillbench profile set NAME --delete --library DIR',
    '   A target folder is an absolute path or one under ~/ (claude-project:/srv/api, agents:~/work/api): the profiles',
    '   are shared in the library\'s deploy-profiles.json, and a relative path would depend on where deploy runs.'
  ].join('\n'),
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    const [action, name, ...rest] = positionals
    if (rest.length > 0) throw new UsageError(coded('cli.unexpected_argument', { argument: rest[0]! }))
    const library = resolveLibraryDir(values, io.cwd)
    if (action === 'list') {
      if (name) throw new UsageError(coded('cli.unexpected_argument', { argument: name }))
      const config = await readDeployConfig((await openLibrary(library)).root)
      if (values.json) printJson(io, config)
      else {
        const names = Object.keys(config.profiles)
        if (names.length === 0) io.stdout(`No deploy profiles in ${DEPLOY_CONFIG_FILE} yet: skillbench profile set NAME --to TARGET --skill …\n`)
        for (const n of names) io.stdout(`${n}  → ${config.profiles[n]!.targets.join(', ')}  (${describe(config.profiles[n]!)})\n`)
        for (const [t, off] of Object.entries(config.disabled)) io.stdout(`disabled for ${t}: ${off.join(', ')}\n`)
      }
      return 0
    }
    if (!name) throw new UsageError(coded('cli.which_profile', { action: action ?? 'show|set' }))
    if (action === 'show') {
      const shown = await showProfile(library, name, io)
      if (values.json) printJson(io, shown)
      else {
        io.stdout(`Profile ${name}: ${describe(shown.profile)}\n`)
        for (const r of shown.targets) {
          const picked = selectedNames(r)
          io.stdout(`→ ${r.target.spec}  (${r.target.label}: ${r.target.dir})\n`)
          io.stdout(`  ${picked.length} skill(s): ${picked.join(', ') || '(none)'}\n`)
          if (r.disabled && r.disabled.length > 0) io.stdout(`  disabled there: ${r.disabled.join(', ')}\n`)
          io.stdout(`  ${budgetMessage(r.target, r.budget)}\n`)
        }
      }
      return 0
    }
    if (action === 'set') {
      const config = values.delete
        ? await setDeployProfile(library, name, null, { env: io.env, cwd: io.cwd })
        : await setDeployProfile(library, name, { targets: values.to ?? [], skills: values.skill ?? [], except: values.except ?? [] }, { env: io.env, cwd: io.cwd })
      if (!values.delete) {
        const { unmatchedSelectors } = await import('../profile-check')
        for (const line of await unmatchedSelectors(library, name, config.profiles[name]!)) io.stderr(`skillbench profile: ${say(io, line)}\n`)
      }
      if (values.json) printJson(io, config)
      else io.stdout(values.delete ? `Removed profile ${name}.\n` : `Profile ${name} → ${config.profiles[name]!.targets.join(', ')} (${describe(config.profiles[name]!)}). Deploy it with: skillbench deploy --profile ${name}\n`)
      return 0
    }
    throw new UsageError(coded('cli.unknown_profile_action', { action: JSON.stringify(action ?? '') }))
  }
}
