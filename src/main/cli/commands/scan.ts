import type { ScanResult, TaskTrace } from '../../../shared/types'
import { parseCommandArgs, printJson, UsageError, type CliCommand, type CliIo } from '../common'
import { scanRoot } from '../../scan/scan-root'
import { ScanCache, cacheFileFor } from '../../scan/cache'
import type { LogParse } from '../../scan/agiagent-parser'
import { noTasksHint, withDefaultRootHint } from '../no-tasks-hint'
import { checkConfigRoot } from '../config-root'
import { coded } from '../../../shared/error-codes'
import { say } from '../lang'
import { reasonOf } from '../../../shared/api-error'

const OPTIONS = {
  'root-dir': { type: 'string' },
  config: { type: 'string' },
  'claude-dir': { type: 'string' },
  'codex-dir': { type: 'string' },
  'synapse-dir': { type: 'string' },
  'no-cache': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false }
} as const

/** The `--json` task shape: exactly these keys, in this order (`source` only for agent sessions). */
export function publicTask(t: TaskTrace): Record<string, unknown> {
  return {
    ...(t.source && t.source !== 'agiagent' ? { source: t.source } : {}),
    user: t.user,
    taskDir: t.taskDir,
    path: t.path,
    mtime: t.mtime,
    status: t.status,
    completed: t.completed,
    requirements: t.requirements,
    // `ok` only where the log says how the call ended (session adapters); `partial` for a call cut off mid-log.
    toolCalls: t.toolCalls.map((c) => ({
      agent: c.agent,
      name: c.name,
      params: c.params,
      ...(c.ok !== undefined ? { ok: c.ok } : {}),
      ...(c.partial ? { partial: true } : {})
    })),
    errors: t.errors,
    interruptions: t.interruptions,
    agentMessages: t.agentMessages,
    files: t.files
  }
}

function oneLine(s: string, width: number): string {
  const flat = s.replace(/\s+/g, ' ').trim()
  return flat.length > width ? flat.slice(0, width - 1) + '…' : flat
}

/** A readable table of the tasks, then the skipped folders. */
export function formatScanTable(result: ScanResult): string {
  const rows = result.tasks.map((t) => [
    t.taskDir,
    t.user || '-',
    t.status,
    String(t.requirements.length),
    String(t.toolCalls.length),
    String(t.errors.length),
    String(t.interruptions),
    oneLine(t.requirements[0] ?? '', 40)
  ])
  const head = ['TASK', 'USER', 'STATUS', 'REQ', 'TOOLS', 'ERR', 'INT', 'FIRST REQUIREMENT']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const fmt = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')
  const lines = [`Root: ${result.root}`, `${result.tasks.length} task(s), ${result.skipped.length} skipped`, '']
  if (rows.length) {
    lines.push(fmt(head), ...rows.map(fmt))
  }
  if (result.skipped.length) {
    lines.push('', 'Skipped:', ...result.skipped.map((s) => `  ${s.path}  (${s.reason})`))
  }
  return lines.join('\n') + '\n'
}

async function runScan(values: Record<string, string | boolean | undefined>, io: CliIo): Promise<ScanResult> {
  const sessionFlags = (['claude-dir', 'codex-dir', 'synapse-dir'] as const).filter((f) => values[f] !== undefined)
  if (sessionFlags.length > 1 || (sessionFlags.length === 1 && values['root-dir'] !== undefined)) {
    throw new UsageError(coded('cli.give_scan_source'))
  }
  const progress = (done: number, total: number): void => {
    if (io.isTTY && !values.json) {
      io.stderr(`\r${say(io, coded('scan.parsing_logs', { done, total }))}`)
    }
  }
  if (sessionFlags.length === 1) {
    const flag = sessionFlags[0]!
    const { scanSessions } = await import('../../scan/sessions')
    const source = flag === 'claude-dir' ? 'claude' : flag === 'codex-dir' ? 'codex' : 'synapse'
    return scanSessions({ source, dir: String(values[flag]), cwd: io.cwd, env: io.env, signal: io.signal, onProgress: progress })
  }
  const { resolveRootDirFrom } = await import('../../scan/discover')
  const found = resolveRootDirFrom({ rootDir: values['root-dir'] as string | undefined, configPath: values.config as string | undefined, cwd: io.cwd })
  // a root config.txt names is checked as --root-dir is, and said with the file (scan only reads: the sample is fine)
  await checkConfigRoot(found, { writes: false, env: io.env })
  let cache: ScanCache<LogParse> | undefined
  if (!values['no-cache']) {
    cache = new ScanCache<LogParse>(cacheFileFor(found.root, io.env))
    await cache.load()
  }
  const result = await scanRoot({
    rootDir: found.root,
    cwd: io.cwd,
    cache,
    signal: io.signal,
    onProgress: progress
  })
  // The cache is an optimisation: failing to write it must not fail the scan.
  await cache?.save().catch((err: unknown) => io.stderr(`skillbench scan: ${say(io, coded('scan.cache_not_saved', { reason: reasonOf(err) }))}\n`))
  if (io.isTTY && !values.json && result.tasks.length) {
    io.stderr('\n')
  }
  // a folder that is not a data root (a library, one task, sessions) scans to nothing: say what is read, and how
  if (result.tasks.length === 0 && result.skipped.length === 0) io.stderr(`skillbench scan: ${say(io, await noTasksHint(result.root))}\n`)
  return result
}

export const command: CliCommand = {
  name: 'scan',
  options: OPTIONS,
  usage:
    'skillbench scan [--root-dir DIR | --config FILE | --claude-dir DIR | --codex-dir DIR | --synapse-dir DIR] [--no-cache] [--json]\n' +
    '  --root-dir DIR  an AGIAgent data root: DIR/<user>/output_YYYYMMDD_HHMMSS/logs/manager.out (default: config.txt\'s\n' +
    '                  gui_default_data_directory, else ./data)\n' +
    '  --config FILE   the config.txt whose gui_default_data_directory names the data root\n' +
    '  --claude-dir, --codex-dir, --synapse-dir DIR\n' +
    '                  a folder of Claude Code transcripts, Codex CLI rollouts or Synapse sessions instead\n' +
    '  --no-cache      read every log again (the cache of parsed logs is in the user\'s cache folder)\n' +
    '  --json          {root, tasks, skipped}: each task parsed (requirements, tool calls per agent, errors, messages, files)',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const rootGiven = (['root-dir', 'config', 'claude-dir', 'codex-dir', 'synapse-dir'] as const).some((f) => values[f] !== undefined)
    const result = await runScan(values, io).catch((err: unknown) => {
      throw withDefaultRootHint(err, rootGiven)
    })
    if (values.json) {
      printJson(io, { root: result.root, tasks: result.tasks.map(publicTask), skipped: result.skipped })
    } else {
      io.stdout(formatScanTable(result))
    }
    return 0
  }
}
