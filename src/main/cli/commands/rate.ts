import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { reportToolResult, servicesFromFlags, skillIdArg } from '../tool-support'
import { coded } from '../../../shared/error-codes'

export const command: CliCommand = {
  name: 'rate',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench rate ID RATING (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 2) throw new UsageError(coded('cli.expected_id_and_rating'))
    const id = skillIdArg(positionals[0])
    const rating = Number(positionals[1])
    if (positionals[1]!.trim() === '' || !Number.isFinite(rating) || rating < 0 || rating > 1) {
      throw new UsageError(coded('cli.rating_range', { value: positionals[1]! }))
    }
    // listed at open, as before a change by id (a temp file a killed writer left is swept)
    const tools = await (await servicesFromFlags(values, io)).tools({ lazy: false })
    return reportToolResult(io, await tools.rate_skill(id, rating), values.json, 'rate')
  }
}
