import path from 'node:path'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand, type CliIo } from '../common'
import { generateCommands, type CommandsReport } from '../../formats/commands-gen'
import { coded } from '../../../shared/error-codes'
import { codedFieldsOf } from '../../../shared/api-error'
import { say } from '../lang'

function printReport(io: CliIo, report: CommandsReport, withUnchanged: boolean): void {
  for (const c of report.written) io.stdout(`wrote     ${c.command}\n`)
  if (withUnchanged) for (const c of report.unchanged) io.stdout(`unchanged ${c.command}\n`)
  for (const m of report.movedAside) io.stdout(`stale     ${m.command} → ${m.to}\n`)
  for (const s of report.skipped) io.stdout(`skipped   ${s.path}: ${s.reason}\n`)
  io.stdout(`${report.written.length} written, ${report.unchanged.length} unchanged, ${report.movedAside.length} moved aside, ${report.skipped.length} skipped (bin: ${report.bin})\n`)
}

const OPTIONS = { ...LIBRARY_OPTIONS, bin: { type: 'string' }, watch: { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'gen-commands',
  options: OPTIONS,
  usage:
    'skillbench gen-commands --library DIR --bin DIR [--json] [--watch]   (Linux/macOS)\n' +
    '  --watch  keep generating: a script added, changed or removed (or a skill folder) updates the commands\n' +
    '           within a second, until Ctrl-C; without it, re-run after scripts change',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    if (!values.bin) throw new UsageError(coded('cli.bin_required'))
    const library = resolveLibraryDir(values, io.cwd)
    const bin = path.resolve(io.cwd, values.bin)
    if (values.watch) {
      const { watchCommands } = await import('../../formats/commands-watch')
      let first = true
      await watchCommands(library, bin, {
        signal: io.signal,
        onReport: (report) => {
          // one JSON document per generation (a line each), or the lines of what changed
          if (values.json) io.stdout(JSON.stringify(report) + '\n')
          else if (first || report.written.length + report.movedAside.length > 0) printReport(io, report, first)
          first = false
        },
        // said once the watch is up, so a change made after reading it is never missed
        onWatching: () => io.stderr(`${say(io, coded('commands.watching', { library }))}\n`),
        onError: (err) => io.stderr(`❌ ${say(io, { ...codedFieldsOf(err), message: err.message })}\n`)
      })
      return 0
    }
    const report = await generateCommands(library, bin)
    if (values.json) printJson(io, report)
    else printReport(io, report, true)
    return 0
  }
}
