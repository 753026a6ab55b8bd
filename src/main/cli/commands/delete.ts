import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { reportToolResult, servicesFromFlags, skillIdArg } from '../tool-support'
import { coded } from '../../../shared/error-codes'

export const command: CliCommand = {
  name: 'delete',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench delete ID (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.expected_one_id'))
    const id = skillIdArg(positionals[0])
    // listed at open, as before a change by id (a temp file a killed writer left is swept)
    const tools = await (await servicesFromFlags(values, io)).tools({ lazy: false })
    return reportToolResult(io, await tools.delete_skill(id), values.json, 'delete')
  }
}
