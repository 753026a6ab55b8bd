import { acceptProposal } from '../../review/decisions'
import { openForCuration } from '../../curate/service'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { actorName } from './curate'
import { coded } from '../../../shared/error-codes'

export const command: CliCommand = {
  name: 'accept',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench accept ID --library DIR | --root-dir DIR --user U [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_proposal_id'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const record = await acceptProposal(opened.root, positionals[0]!, actorName(values.user))
    if (values.json) printJson(io, { status: 'success', journal_id: record.id, proposal_id: record.proposal_id, changes: record.changes.map((c) => c.path) })
    else io.stdout(`Applied ${record.proposal_id} (${record.kind}); journal entry ${record.id}. Undo with \`skillbench undo ${record.proposal_id}\`.\n`)
    return 0
  }
}
