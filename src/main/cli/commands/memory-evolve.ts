/** `skillbench memory evolve`: scanned tasks → memory proposals in a library's review queue (seed 003). */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { TaskTrace } from '../../../shared/types'
import { failureRate } from '../../memory/evolution'
import { evolveMemory } from '../../reflect/memory-evolve'
import { UsageError, type CliIo } from '../common'
import { tracesOf } from '../trace-files'
import { coded } from '../../../shared/error-codes'

interface EvolveValues {
  library?: string
  user?: string
  'root-dir'?: string
  'claude-dir'?: string
  'codex-dir'?: string
  'synapse-dir'?: string
  lang?: string
  'no-preferences'?: boolean
  'no-tool-stats'?: boolean
}

/** The tasks to learn from: one source folder, or scan/trace JSON files. */
async function evolveTraces(values: EvolveValues, files: string[], io: CliIo): Promise<TaskTrace[]> {
  const dirs = (['root-dir', 'claude-dir', 'codex-dir', 'synapse-dir'] as const).filter((f) => values[f] !== undefined)
  if (dirs.length + (files.length > 0 ? 1 : 0) !== 1) {
    throw new UsageError(coded('cli.evolve_needs_source'))
  }
  if (files.length > 0) {
    const traces: TaskTrace[] = []
    for (const f of files) {
      const file = path.resolve(io.cwd, f)
      const found = tracesOf(await fs.readFile(file, 'utf8'), file)
      if (!found) throw new UsageError(coded('cli.not_scan_output', { file: f }))
      traces.push(...found)
    }
    return traces
  }
  const flag = dirs[0]!
  if (flag === 'root-dir') {
    const { scanRoot } = await import('../../scan/scan-root')
    const scan = await scanRoot({ rootDir: path.resolve(io.cwd, values['root-dir']!), cwd: io.cwd, signal: io.signal })
    return values.user ? scan.tasks.filter((t) => t.user === values.user) : scan.tasks
  }
  const { scanSessions } = await import('../../scan/sessions')
  const source = flag === 'claude-dir' ? 'claude' : flag === 'codex-dir' ? 'codex' : 'synapse'
  return (await scanSessions({ source, dir: path.resolve(io.cwd, values[flag]!), cwd: io.cwd, env: io.env, signal: io.signal })).tasks
}

export async function evolveCommand(ws: string, values: EvolveValues, files: string[], io: CliIo, out: (human: string, data: unknown) => void): Promise<number> {
  const lang = values.lang === undefined ? 'en' : values.lang
  if (lang !== 'en' && lang !== 'zh') throw new UsageError(coded('cli.must_be_either', { option: '--lang', a: 'en', b: 'zh' }))
  const libraryDir = values.library
    ? path.resolve(io.cwd, values.library)
    : values['root-dir'] && values.user
      ? path.resolve(io.cwd, values['root-dir'], values.user, 'general', 'experience')
      : undefined
  if (!libraryDir) throw new UsageError(coded('cli.which_library_reviews'))
  const root = await fs.realpath(libraryDir).catch(() => {
    throw new UsageError(coded('library.not_found', { path: libraryDir }))
  })
  const traces = await evolveTraces(values, files, io)
  const r = await evolveMemory(root, traces, {
    workspace: ws,
    lang,
    skip: { preferences: values['no-preferences'], toolStats: values['no-tool-stats'] }
  })
  const f = r.findings
  const stats = f.tools.slice(0, 8).map((s) => `${s.tool} ${s.calls}${s.known ? ` (${Math.round(failureRate(s) * 100)}% errors)` : ''}`)
  const lines = [
    `${f.tasks} task(s): ${f.hallucinations.length} hallucinated tool(s), ${f.critic.length} critic suggestion(s), ${r.preferences} preference(s), ${f.tools.length} tool(s) used`,
    ...(stats.length ? [`  tools: ${stats.join(', ')}${f.tools.length > 8 ? ', …' : ''}`] : []),
    `proposed ${r.proposed.length} memory change(s) for review${r.skipped.length ? `, skipped ${r.skipped.length} already there` : ''}`,
    ...r.proposed.map((p) => `  [${p.id}] ${(p.evidence.memory as { target: string }).target}.md  ${(p.evidence.memory as { entries: string[] }).entries.join(' | ')}`),
    ...r.skipped.map((s) => `  (skipped, ${s.reason.replace('_', ' ')}) ${s.entry}`),
    ...(r.proposed.length ? ['Review with `skillbench proposals`, then `skillbench accept ID` (undo: `skillbench undo ID`), or on the Curate screen.'] : [])
  ]
  out(lines.join('\n'), { tasks: f.tasks, findings: f, proposed: r.proposed, skipped: r.skipped })
  return 0
}
