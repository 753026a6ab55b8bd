import path from 'node:path'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { generateCommands } from '../../formats/commands-gen'

export const command: CliCommand = {
  name: 'gen-commands',
  usage: 'skillbench gen-commands --library DIR --bin DIR [--json]   (Linux/macOS; re-run after scripts change)',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { ...LIBRARY_OPTIONS, bin: { type: 'string' } }, false)
    if (!values.bin) throw new UsageError('--bin DIR is required (where the commands go; put it on your PATH)')
    const report = await generateCommands(resolveLibraryDir(values, io.cwd), path.resolve(io.cwd, values.bin))
    if (values.json) {
      printJson(io, report)
    } else {
      for (const c of report.written) io.stdout(`wrote     ${c.command}\n`)
      for (const c of report.unchanged) io.stdout(`unchanged ${c.command}\n`)
      for (const m of report.movedAside) io.stdout(`stale     ${m.command} → ${m.to}\n`)
      for (const s of report.skipped) io.stdout(`skipped   ${s.path}: ${s.reason}\n`)
      io.stdout(`${report.written.length} written, ${report.unchanged.length} unchanged, ${report.movedAside.length} moved aside, ${report.skipped.length} skipped (bin: ${report.bin})\n`)
    }
    return 0
  }
}
