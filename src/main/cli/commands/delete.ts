import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { openLibraryFromFlags, reportToolResult, skillIdArg } from '../tool-support'
import { createSkillTools } from '../../tools/skill-tools'

export const command: CliCommand = {
  name: 'delete',
  usage: 'skillbench delete ID (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError('expected exactly one argument: ID')
    const id = skillIdArg(positionals[0])
    const lib = await openLibraryFromFlags(values, io)
    return reportToolResult(io, await createSkillTools(lib).delete_skill(id), values.json, 'delete')
  }
}
