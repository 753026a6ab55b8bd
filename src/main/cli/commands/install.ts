import { installFromSource } from '../../sources/install'
import { parseCommandArgs, printJson, resolveLibraryDir, UsageError, LIBRARY_OPTIONS, type CliCommand } from '../common'

export const command: CliCommand = {
  name: 'install',
  usage: 'skillbench install SOURCE --library DIR [--ref REF] [--path SUBDIR] [--skill NAME]... [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      ...LIBRARY_OPTIONS,
      ref: { type: 'string' },
      path: { type: 'string' },
      skill: { type: 'string', multiple: true }
    })
    if (positionals.length !== 1) throw new UsageError('give one SOURCE: a git URL (https, ssh, file://) or a local repository folder')
    const library = resolveLibraryDir(values, io.cwd)
    const report = await installFromSource({
      library,
      source: positionals[0]!,
      ref: values.ref,
      path: values.path,
      skills: values.skill,
      cwd: io.cwd,
      env: io.env,
      signal: io.signal,
      onProgress: (m) => io.stderr(`${m}\n`)
    })
    if (values.json) printJson(io, report)
    else {
      for (const s of report.installed) io.stdout(`installed ${s.name}  → ${s.path}  (${s.source.repo}@${s.source.commit.slice(0, 12)}${s.source.path ? ` ${s.source.path}` : ''})\n`)
      for (const s of report.skipped) io.stdout(`skipped   ${s.name}: ${s.reason}\n`)
      io.stdout(`${report.installed.length} installed, ${report.skipped.length} skipped\n`)
    }
    const onlyAlreadyThere = report.skipped.every((s) => s.reason.startsWith('already installed'))
    return report.installed.length > 0 || onlyAlreadyThere ? 0 : 1
  }
}
