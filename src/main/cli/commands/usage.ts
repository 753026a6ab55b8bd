import path from 'node:path'
import type { SkillUsage, UsageReport, UsageVerdict } from '../../../shared/types'
import { parseCommandArgs, printJson, UsageError, type CliCommand, type CliIo } from '../common'
import { fitWidth, formatTable, servicesFromFlags } from '../tool-support'
import { coded } from '../../../shared/error-codes'
import { say, sayText } from '../lang'

const OPTIONS = {
  library: { type: 'string' },
  'root-dir': { type: 'string', multiple: true },
  'claude-dir': { type: 'string', multiple: true },
  'codex-dir': { type: 'string', multiple: true },
  'synapse-dir': { type: 'string', multiple: true },
  since: { type: 'string' },
  'no-cache': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false }
} as const

/** The `--json` shape, exactly as issue 14 fixes it. */
export function publicUsage(report: UsageReport): Record<string, unknown> {
  return {
    skills: report.skills.map((s) => ({
      skill_id: s.skill_id,
      name: s.name,
      title: s.title,
      uses: s.uses,
      completed: s.completed,
      failed: s.failed,
      interrupted: s.interrupted,
      corrected: s.corrected,
      last_used_at: s.last_used_at,
      tasks: s.tasks.map((t) => ({ source: t.source, task: t.task, at: t.at, outcome: t.outcome }))
    })),
    baseline: { tasks: report.baseline.tasks, completed: report.baseline.completed, failed: report.baseline.failed, interrupted: report.baseline.interrupted }
  }
}

const VERDICT: Record<UsageVerdict, string> = {
  // the table's USES are the logs' (the skill's own fetch_count is not among them): say which source found none
  unused: 'no use in the logs read',
  'too-few': 'too few uses to tell',
  'no-baseline': 'too few tasks without it to compare',
  'fails-more': 'FAILS MORE than the baseline: review it',
  'as-baseline': 'not worse than the baseline'
}

function pct(n: number, of: number): string {
  return of === 0 ? '-' : `${Math.round((100 * n) / of)}%`
}

/** "went wrong" (failed or corrected) of the tasks that used it, and of its baseline. */
function comparison(s: SkillUsage): string {
  const judged = s.completed + s.failed + s.interrupted + s.corrected + s.incomplete
  if (judged === 0) return '-' // no task used it: nothing to compare
  const bad = s.failed + s.corrected
  return `${bad}/${judged} ${pct(bad, judged)} vs ${s.baseline.failed + s.baseline.corrected}/${s.baseline.tasks} ${pct(s.baseline.failed + s.baseline.corrected, s.baseline.tasks)}`
}

/** A readable table: one row per skill (most used first), then the baseline and what was read. */
export function formatUsageTable(report: UsageReport, library: string): string {
  const skills = [...report.skills].sort((a, b) => b.uses - a.uses || (a.title < b.title ? -1 : 1))
  const rows = skills.map((s) => [
    fitWidth(s.title || s.name, 40),
    String(s.uses),
    String(s.completed),
    String(s.failed),
    String(s.interrupted),
    String(s.corrected),
    s.last_used_at ? s.last_used_at.slice(0, 10) : '-',
    comparison(s),
    VERDICT[s.verdict]
  ])
  const b = report.baseline
  const lines = [
    `Library: ${library}`,
    `Period: ${report.since ? `since ${report.since.slice(0, 10)}` : 'everything scanned'}`,
    `Read: ${report.sources.map((s) => (s.kind === 'ledger' ? `Skillbench's recorded queries (${s.tasks})` : `${s.kind} ${s.dir} (${s.tasks} tasks)`)).join('; ') || 'nothing'}`,
    ''
  ]
  if (rows.length) lines.push(formatTable(['SKILL', 'USES', 'DONE', 'FAILED', 'INTERRUPTED', 'CORRECTED', 'LAST USED', 'WENT WRONG vs BASELINE', 'VERDICT'], rows))
  else lines.push('The library has no active skills.')
  lines.push(
    '',
    `Baseline (tasks that used no skill of this library): ${b.tasks} tasks — ${b.completed} completed, ${b.failed} failed, ${b.interrupted} interrupted, ${b.corrected} corrected by the user.`,
    `A skill is judged from ${report.rules.minUses} uses on, against at least ${report.rules.minBaseline} baseline tasks from the same sources; "fails more" = at least 2 and ${Math.round(report.rules.margin * 100)} points more of its tasks went wrong (failed or corrected).`
  )
  for (const p of report.problems) lines.push(`Not read: ${p}`)
  return lines.join('\n') + '\n'
}

async function collect(values: Record<string, unknown>, io: CliIo): Promise<{ report: UsageReport; library: string }> {
  const { parseSince } = await import('../../usage/service')
  if (!values.library) throw new UsageError(coded('cli.which_library_dir'))
  const since = values.since === undefined ? undefined : parseSince(String(values.since))
  if (since === null) throw new UsageError(coded('cli.since_format', { value: JSON.stringify(values.since) }))
  const named = [
    ...((values['root-dir'] as string[] | undefined) ?? []).map((dir) => ({ kind: 'agiagent' as const, dir })),
    ...((values['claude-dir'] as string[] | undefined) ?? []).map((dir) => ({ kind: 'claude' as const, dir })),
    ...((values['codex-dir'] as string[] | undefined) ?? []).map((dir) => ({ kind: 'codex' as const, dir })),
    ...((values['synapse-dir'] as string[] | undefined) ?? []).map((dir) => ({ kind: 'synapse' as const, dir }))
  ].map((s) => ({ ...s, dir: path.resolve(io.cwd, s.dir) }))
  const services = await servicesFromFlags({ library: String(values.library) }, io)
  const { report, library, saveProblems } = await services.usage({
    ...(named.length > 0 ? { sources: named } : {}),
    since,
    persist: !values['no-cache'],
    signal: io.signal,
    onProgress: (line) => {
      if (io.isTTY && !values.json) io.stderr(`${say(io, line)}…\n`)
    }
  })
  for (const p of saveProblems) io.stderr(`skillbench usage: ${sayText(io, p)}\n`)
  // a source named on the command line that cannot be read is an error worth saying loudly
  for (const p of report.problems) if (named.length > 0 && !p.includes('.skillbench')) io.stderr(`skillbench usage: ${sayText(io, p)}\n`)
  return { report, library }
}

export const command: CliCommand = {
  name: 'usage',
  options: OPTIONS,
  usage:
    'skillbench usage --library DIR [--root-dir DIR] [--claude-dir DIR] [--codex-dir DIR] [--synapse-dir DIR] [--since DATE] [--no-cache] [--json]\n' +
    '  --root-dir, --claude-dir, --codex-dir, --synapse-dir DIR\n' +
    '                the agents\' logs to read, each as often as needed; without any: the library\'s own data root\n' +
    '                and ~/.claude/projects, ~/.codex/sessions, ~/.synapse/sessions (the ledger is always read)\n' +
    '  --since DATE  only tasks from then on: 2026-11-01, an ISO 8601 date and time, or days back (30d)\n' +
    '  --no-cache    parse every log again, and keep no cache of them',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length > 0) throw new UsageError(coded('cli.unexpected_argument', { argument: positionals[0]! }))
    const { report, library } = await collect(values, io)
    if (values.json) printJson(io, publicUsage(report))
    else io.stdout(formatUsageTable(report, library))
    return 0
  }
}
