import { updateFromSources } from '../../sources/update'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, type CliCommand } from '../common'
import { say } from '../lang'

export const command: CliCommand = {
  name: 'update',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench update --library DIR [--json]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, LIBRARY_OPTIONS, false)
    const report = await updateFromSources({ library: resolveLibraryDir(values, io.cwd), cwd: io.cwd, env: io.env, signal: io.signal, onProgress: (line) => io.stderr(`${say(io, line)}\n`) })
    if (values.json) printJson(io, report)
    else {
      if (report.checked === 0) io.stdout('No skill of this library was installed from a source (skillbench install).\n')
      for (const p of report.proposals) {
        const local = p.local_edit ? `, also edited here${p.conflicts > 0 ? `: ${p.conflicts} conflict(s) marked` : ''}` : ''
        io.stdout(`[${p.id}] ${p.name}: ${p.from.slice(0, 12)} → ${p.to.slice(0, 12)}${local}${p.status === 'exists' ? ' (already queued)' : ''}\n`)
      }
      for (const u of report.unchanged) io.stdout(`up to date  ${u.name}${u.note ? ` (${u.note})` : ''}\n`)
      for (const f of report.failed) io.stdout(`failed      ${f.name}: ${f.reason}\n`)
      if (report.proposals.length > 0) io.stdout('\nNothing changed yet. Review with `skillbench proposals`, then `skillbench accept ID` (or in the app\'s Curate screen).\n')
    }
    return report.failed.length > 0 ? 1 : 0
  }
}
