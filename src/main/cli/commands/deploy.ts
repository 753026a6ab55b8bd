import type { DeployResult } from '../../../shared/api-deploy'
import { readDeployConfig } from '../../deploy/deploy-config'
import { budgetMessage, deploy } from '../../deploy/run'
import { openLibrary } from '../../store/library'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { usageIndexLookup } from '../usage-lookup'
import { actorName } from './curate'
import { findingsReport } from '../../audit/gate'
import type { AuditFinding } from '../../audit/types'
import { coded } from '../../../shared/error-codes'

/**
 * The audit's findings of the skills the target gets (written, updated or in sync): the copies in the agent's folder
 * after a run, so a person sees exactly what agents will run; the library's folders of the same names on a dry run.
 */
async function auditDeployed(library: string, result: DeployResult): Promise<AuditFinding[]> {
  const [path, fs] = await Promise.all([import('node:path'), import('node:fs')])
  const placed = result.skills.filter((s) => ['create', 'update', 'unchanged', 'adopt'].includes(s.action)).map((s) => s.name)
  const base = result.dryRun ? library : result.target.dir
  const dirs = placed.map((name) => path.join(base, name)).filter((p) => path.dirname(p) === base && fs.existsSync(path.join(p, 'SKILL.md')))
  if (dirs.length === 0) return []
  const { auditPaths } = await import('../../audit/read-paths')
  return (await auditPaths(dirs)).findings.map(({ path: _path, ...f }) => f)
}

const VERB: Record<string, string> = {
  create: 'write   ',
  update: 'update  ',
  remove: 'remove  ',
  unchanged: 'in sync ',
  adopt: 'in sync ',
  forget: 'gone    ',
  drifted: 'drifted ',
  unmanaged: 'leave   ',
  refused: 'refuse  '
}

/** The plan or the run in lines a person reads (the same for --dry-run and a real run, apart from the tense). */
export function formatDeploy(r: DeployResult): string {
  // a plain folder's label is its path: said once
  const where = r.target.label === r.target.dir ? r.target.dir : `${r.target.label}: ${r.target.dir}`
  const lines = [`${r.dryRun ? 'Would deploy' : 'Deployed'} to ${where}`]
  for (const s of r.skills) {
    const files = s.files.length > 0 ? `  (${s.files.map((f) => `${f.change === 'remove' ? '-' : f.change === 'write' ? '+' : '~'}${f.path}`).join(' ')})` : ''
    lines.push(`  ${VERB[s.action] ?? s.action} ${s.name}${files}${s.reason ? ` — ${s.reason}` : ''}${s.proposal ? ` → proposal ${s.proposal}` : ''}`)
    for (const note of s.notes ?? []) lines.push(`             (${note})`)
  }
  const c = r.counts
  lines.push(`${c.written} new, ${c.updated} updated, ${c.removed} removed, ${c.unchanged} in sync, ${c.drifted} changed there (left in place), ${c.left} left alone`)
  lines.push(budgetMessage(r.target, r.budget))
  if (r.disabled && r.disabled.length > 0) lines.push(`Disabled for this target (not deployed): ${r.disabled.join(', ')} — skillbench enable NAME --to ${r.target.spec} brings one back`)
  for (const w of r.warnings) lines.push(`⚠️  ${w}`)
  const fresh = r.proposals.filter((p) => !p.queued).length
  if (fresh > 0) lines.push(`${fresh} change(s) made in the target ${r.dryRun ? 'would be' : 'were'} offered back to the library: review them with \`skillbench proposals\``)
  const waiting = r.proposals.length - fresh
  if (waiting > 0) lines.push(`${waiting} change(s) made in the target already wait for review (\`skillbench proposals\`)`)
  if (r.journal_id) lines.push(`Undo with \`skillbench undo ${r.journal_id}\`.`)
  return lines.join('\n') + '\n'
}

const OPTIONS = { ...LIBRARY_OPTIONS, to: { type: 'string' }, skill: { type: 'string', multiple: true }, profile: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'deploy',
  options: OPTIONS,
  usage: 'skillbench deploy --library DIR --to claude|claude-project:PATH|codex|agents:PATH|gemini|opencode|FOLDER [--skill NAME]... [--dry-run] [--json]\n       skillbench deploy --library DIR --profile NAME [--to TARGET] [--dry-run] [--json]   (every target of the profile, or the one given)',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const library = resolveLibraryDir(values, io.cwd)
    const run = (to: string): Promise<DeployResult> =>
      deploy({ library, to, skills: values.skill, profile: values.profile, dryRun: values['dry-run'], cwd: io.cwd, env: io.env, by: actorName(values.user), usage: usageIndexLookup(library, io) })
    if (values.profile !== undefined && !values.to) {
      const config = await readDeployConfig((await openLibrary(library)).root)
      const profile = config.profiles[values.profile]
      if (!profile) throw new UsageError(coded('deploy.no_profile_in', { profile: JSON.stringify(values.profile), root: library }))
      const results: DeployResult[] = []
      for (const to of profile.targets) {
        const r = await run(to)
        const findings = await auditDeployed(library, r)
        results.push(values.json ? ({ ...r, findings } as DeployResult) : r)
        if (!values.json) io.stdout(formatDeploy(r) + findingsReport(findings, 'deployed skills'))
      }
      if (values.json) printJson(io, { profile: values.profile, deploys: results })
      return 0
    }
    if (!values.to) throw new UsageError(coded('cli.deploy_where'))
    const result = await run(values.to)
    const findings = await auditDeployed(library, result)
    if (values.json) printJson(io, { ...result, findings })
    else io.stdout(formatDeploy(result) + findingsReport(findings, 'deployed skills'))
    return 0
  }
}
