import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { openLibraryFromFlags, reportToolResult, skillIdArg } from '../tool-support'
import { createSkillTools } from '../../tools/skill-tools'

export const command: CliCommand = {
  name: 'rate',
  usage: 'skillbench rate ID RATING (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 2) throw new UsageError('expected exactly two arguments: ID RATING')
    const id = skillIdArg(positionals[0])
    const rating = Number(positionals[1])
    if (positionals[1]!.trim() === '' || !Number.isFinite(rating) || rating < 0 || rating > 1) {
      throw new UsageError(`RATING must be a number from 0 to 1 (got '${positionals[1]}')`)
    }
    const lib = await openLibraryFromFlags(values, io)
    return reportToolResult(io, await createSkillTools(lib).rate_skill(id, rating), values.json, 'rate')
  }
}
