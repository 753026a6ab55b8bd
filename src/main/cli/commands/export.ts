import path from 'node:path'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { convertTree, type ConvertReport } from '../../formats/convert'
import { FORMAT_IDS, type FormatId } from '../../formats/model'
import { coded } from '../../../shared/error-codes'

/** Prints a conversion report for people. */
export function printConvertReport(report: ConvertReport, out: (t: string) => void): void {
  for (const w of report.written) out(`wrote   ${w.to}  (from ${w.from})\n`)
  for (const s of report.skipped) out(`skipped ${s.to ?? s.from}: ${s.reason}\n`)
  for (const e of report.errors) out(`error   ${e.path}: ${e.reason}\n`)
  if (report.index) out(`${report.index.file} ${report.index.status}${report.index.reason ? `: ${report.index.reason}` : ''} (${report.index.skills} skills)\n`)
  if (report.available) out(`${report.available.file} ${report.available.status} (${report.available.skills} skills)\n`)
  out(`${report.written.length} written, ${report.skipped.length} skipped, ${report.errors.length} unreadable\n`)
}

const OPTIONS = { ...LIBRARY_OPTIONS, to: { type: 'string' }, out: { type: 'string' }, overwrite: { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'export',
  options: OPTIONS,
  usage: 'skillbench export --to skill-md|agiagent|learned-yaml|mas-config --library DIR --out DIR [--overwrite] [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const to = values.to as FormatId | undefined
    if (!to || !FORMAT_IDS.includes(to)) throw new UsageError(coded('cli.must_be_one_of', { option: '--to', choices: FORMAT_IDS.join(', ') }))
    if (!values.out) throw new UsageError(coded('cli.out_required'))
    const library = resolveLibraryDir(values, io.cwd)
    const report = await convertTree(library, path.resolve(io.cwd, values.out), to, { overwrite: values.overwrite })
    if (values.json) printJson(io, report)
    else printConvertReport(report, io.stdout)
    return report.errors.length > 0 ? 1 : 0
  }
}
