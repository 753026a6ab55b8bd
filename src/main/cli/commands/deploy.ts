import fs from 'node:fs'
import type { DeployResult } from '../../../shared/api-deploy'
import type { DeployCheckpoint, DeployStop } from '../../deploy/cancel'
import { readDeployConfig } from '../../deploy/deploy-config'
import { budgetMessage, deploy } from '../../deploy/run'
import { refuseRelativeTargets } from '../../deploy/selection-service'
import { openLibrary } from '../../store/library'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { usageIndexLookup } from '../usage-lookup'
import { actorName } from './curate'
import { findingsReport } from '../../audit/gate'
import type { AuditFinding } from '../../audit/types'
import { coded } from '../../../shared/error-codes'
import { say, type CliWords } from '../lang'

/**
 * For crash and cancel tests: SKILLBENCH_DEPLOY_PAUSE_AT=planned (the plan made, nothing written) or file:N (the N-th
 * file's folder made, its bytes not yet written) holds a real run there, saying so on stderr, until the file
 * SKILLBENCH_DEPLOY_RESUME_FILE exists (forever without one: the test stops it there).
 */
function pauseHook(io: { env: NodeJS.ProcessEnv; stderr: (t: string) => void; words?: CliWords }): DeployCheckpoint | undefined {
  const at = io.env.SKILLBENCH_DEPLOY_PAUSE_AT
  if (!at) return undefined
  const resume = io.env.SKILLBENCH_DEPLOY_RESUME_FILE
  const name = (s: DeployStop): string => (s.step === 'file' ? `file:${s.n}` : s.step)
  return async (stop) => {
    if (name(stop) !== at) return
    io.stderr(`${say(io, coded('deploy.paused_at', { step: stop.step === 'file' ? `${at} (${stop.rel})` : at }))}\n`)
    for (;;) {
      if (resume && fs.existsSync(resume)) return
      await new Promise((r) => setTimeout(r, 20))
    }
  }
}

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
  const budget = budgetMessage(r.target, r.budget)
  lines.push(budget)
  if (r.disabled && r.disabled.length > 0) lines.push(`Disabled for this target (not deployed): ${r.disabled.join(', ')} — skillbench enable NAME --to ${r.target.spec} brings one back`)
  // the budget's warning is the line just above: said once
  for (const w of r.warnings) if (w !== budget) lines.push(`⚠️  ${w}`)
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
    const checkpoint = pauseHook(io)
    const run = (to: string): Promise<DeployResult> =>
      deploy({ library, to, skills: values.skill, profile: values.profile, dryRun: values['dry-run'], cwd: io.cwd, env: io.env, by: actorName(values.user), usage: usageIndexLookup(library, io), signal: io.signal, ...(checkpoint ? { checkpoint } : {}) })
    if (values.profile !== undefined && !values.to) {
      const config = await readDeployConfig((await openLibrary(library)).root)
      const profile = config.profiles[values.profile]
      if (!profile) throw new UsageError(coded('deploy.no_profile_in', { profile: JSON.stringify(values.profile), root: library }))
      // a relative folder (written by hand, or before profiles refused them) would follow the folder deploy runs in
      refuseRelativeTargets(values.profile, profile.targets, io.cwd)
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
