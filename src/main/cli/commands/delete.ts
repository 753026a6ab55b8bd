import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { reportToolResult, servicesFromFlags, skillIdArg } from '../tool-support'
import { directToolWrite } from '../../mcp/direct-writes'
import { actorName } from './curate'
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
    const store = await (await servicesFromFlags(values, io)).library({ lazy: false })
    // journaled like an accepted proposal: the answer says how to undo it
    return reportToolResult(io, await directToolWrite(store, 'delete_skill', { skill_id: id }, { by: actorName(values.user), author: 'cli' }), values.json, 'delete')
  }
}
