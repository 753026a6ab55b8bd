import fs from 'node:fs'
import { initSync } from '../../sync/init'
import { syncLibrary, type SyncReport } from '../../sync/sync'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, type CliCommand } from '../common'
import { say, type CliWords } from '../lang'
import { coded } from '../../../shared/error-codes'

function summary(r: SyncReport): string {
  const lines = [`${r.committed} commit(s) made, ${r.pulled} received, ${r.pushed} sent (${r.remote}, now at ${r.head.slice(0, 12)})`]
  for (const m of r.messages) lines.push(`  committed: ${m}`)
  if (r.recovered) lines.push('  finished the sync that was interrupted before')
  for (const c of r.conflicts) lines.push(`  both sides changed skill ${c.skill_id || '(a file)'}: the remote's version is live, yours is proposal ${c.proposal_id}`)
  for (const n of r.notes) lines.push(`  note: ${n.message}`)
  if (r.conflicts.length > 0) lines.push('', 'Review your side of each conflict with `skillbench proposals`, then `skillbench accept ID` (or in the app\'s Curate screen).')
  return lines.join('\n') + '\n'
}

/**
 * For crash and race tests: SKILLBENCH_SYNC_PAUSE_AT=<step> stops the sync right after that step (it says so on
 * stderr) until the file SKILLBENCH_SYNC_RESUME_FILE exists (forever without one: the test kills it there).
 */
function pauseHook(io: { env: NodeJS.ProcessEnv; stderr: (t: string) => void; words?: CliWords }): ((step: string) => Promise<void>) | undefined {
  const at = io.env.SKILLBENCH_SYNC_PAUSE_AT
  if (!at) return undefined
  const resume = io.env.SKILLBENCH_SYNC_RESUME_FILE
  return async (step) => {
    if (step !== at) return
    io.stderr(`${say(io, coded('sync.paused_at', { step }))}\n`)
    for (;;) {
      if (resume && fs.existsSync(resume)) return
      await new Promise((r) => setTimeout(r, 20))
    }
  }
}

const OPTIONS = { ...LIBRARY_OPTIONS, init: { type: 'string' } } as const

export const command: CliCommand = {
  name: 'sync',
  options: OPTIONS,
  usage: 'skillbench sync --library DIR [--init URL] [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const library = resolveLibraryDir(values, io.cwd)
    if (values.init !== undefined) {
      const { branch } = await initSync({ library, url: values.init, env: io.env, signal: io.signal })
      io.stderr(`${say(io, coded('sync.now_repo', { branch, url: values.init }))}\n`)
    }
    const report = await syncLibrary({ library, env: io.env, signal: io.signal, afterStep: pauseHook(io), onProgress: (p) => io.stderr(`${say(io, p)}${p.total ? ` (${p.done ?? 0}/${p.total})` : ''}\n`) })
    if (values.json) printJson(io, { committed: report.committed, pulled: report.pulled, pushed: report.pushed, conflicts: report.conflicts })
    else io.stdout(summary(report))
    if (values.json) for (const n of report.notes) io.stderr(`${say(io, coded('sync.note', { note: { messageCode: n.messageCode, params: n.params } }))}\n`)
    return 0
  }
}
