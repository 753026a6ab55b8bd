import path from 'node:path'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { convertTree, libraryLayout } from '../../formats/convert'
import { FORMAT_IDS, type FormatId } from '../../formats/model'
import { printConvertReport } from './export'
import { findingsReport } from '../../audit/gate'
import type { AuditFinding } from '../../audit/types'
import { coded } from '../../../shared/error-codes'
import { say } from '../lang'

/** The audit's findings of the folder or file imported from. */
async function auditSource(from: string): Promise<AuditFinding[]> {
  const { auditPaths } = await import('../../audit/read-paths')
  return (await auditPaths([from])).findings.map(({ path: _path, ...f }) => f)
}

const OPTIONS = { ...LIBRARY_OPTIONS, from: { type: 'string' }, format: { type: 'string', default: 'auto' }, as: { type: 'string' }, overwrite: { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'import',
  options: OPTIONS,
  usage: 'skillbench import --from DIR|SKILL-FILE [--format auto|skill-md|agiagent|learned-yaml|mas-config] --library DIR [--as skill-md|agiagent] [--overwrite] [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      OPTIONS,
      false
    )
    if (!values.from) throw new UsageError(coded('cli.from_required'))
    const format = values.format as string
    if (format !== 'auto' && !FORMAT_IDS.includes(format as FormatId)) throw new UsageError(coded('cli.format_auto_or_one_of', { formats: FORMAT_IDS.join(', ') }))
    if (values.as !== undefined && values.as !== 'skill-md' && values.as !== 'agiagent') throw new UsageError(coded('cli.must_be_either', { option: '--as', a: 'skill-md', b: 'agiagent' }))
    const library = resolveLibraryDir(values, io.cwd)
    const as = (values.as as 'skill-md' | 'agiagent' | undefined) ?? (await libraryLayout(library))
    const report = await convertTree(path.resolve(io.cwd, values.from), library, as, {
      overwrite: values.overwrite,
      single: true,
      from: format === 'auto' ? undefined : (format as FormatId)
    })
    const nothing = report.written.length + report.skipped.length + report.errors.length === 0
    // what was imported, audited as it came (shown, not blocking: the files are the person's own)
    const audit = nothing ? null : await auditSource(path.resolve(io.cwd, values.from))
    if (values.json) printJson(io, audit ? { ...report, findings: audit } : report)
    else if (!nothing) {
      printConvertReport(report, io.stdout)
      if (audit) io.stdout(findingsReport(audit, 'imported skills'))
    }
    if (nothing) {
      const none = format === 'auto' ? coded('import.none_found', { source: report.source }) : coded('import.none_found_format', { source: report.source, format })
      io.stderr(`skillbench import: ${say(io, none)}\n`)
    }
    return report.errors.length > 0 || nothing ? 1 : 0
  }
}
