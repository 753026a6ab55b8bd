import type { DeployResult } from '../../../shared/api-deploy'
import { budgetMessage, deploy } from '../../deploy/run'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { actorName } from './curate'

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
  for (const w of r.warnings) lines.push(`⚠️  ${w}`)
  const fresh = r.proposals.filter((p) => !p.queued).length
  if (fresh > 0) lines.push(`${fresh} change(s) made in the target ${r.dryRun ? 'would be' : 'were'} offered back to the library: review them with \`skillbench proposals\``)
  const waiting = r.proposals.length - fresh
  if (waiting > 0) lines.push(`${waiting} change(s) made in the target already wait for review (\`skillbench proposals\`)`)
  if (r.journal_id) lines.push(`Undo with \`skillbench undo ${r.journal_id}\`.`)
  return lines.join('\n') + '\n'
}

export const command: CliCommand = {
  name: 'deploy',
  usage: 'skillbench deploy --library DIR --to claude|claude-project:PATH|codex|agents:PATH|gemini|opencode|FOLDER [--skill NAME]... [--dry-run] [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { ...LIBRARY_OPTIONS, to: { type: 'string' }, skill: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean', default: false } }, false)
    if (!values.to) throw new UsageError('say where to deploy: --to claude | claude-project:PATH | codex | agents:PATH | gemini | opencode | a folder')
    const result = await deploy({
      library: resolveLibraryDir(values, io.cwd),
      to: values.to,
      skills: values.skill,
      dryRun: values['dry-run'],
      cwd: io.cwd,
      env: io.env,
      by: actorName(values.user)
    })
    if (values.json) printJson(io, result)
    else io.stdout(formatDeploy(result))
    return 0
  }
}
