import path from 'node:path'
import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { reportToolResult, servicesFromFlags, skillIdArg } from '../tool-support'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { ...LIBRARY_OPTIONS, workspace: { type: 'string' } } as const

export const command: CliCommand = {
  name: 'copy-files',
  options: OPTIONS,
  usage: 'skillbench copy-files ID FILE... --workspace DIR (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    const [rawId, ...files] = positionals
    const id = skillIdArg(rawId)
    if (files.length === 0) throw new UsageError(coded('cli.give_files'))
    if (!values.workspace) throw new UsageError(coded('cli.workspace_missing'))
    // listed at open, as before a change by id (a temp file a killed writer left is swept)
    const tools = await (await servicesFromFlags(values, io)).tools({ lazy: false })
    const result = await tools.copy_skill_files(id, files, path.resolve(io.cwd, values.workspace))
    return reportToolResult(io, result, values.json, 'copy-files')
  }
}
