import { openForCuration } from '../../curate/service'
import { undoApplied } from '../../review/decisions'
import { findDeployRecord, undoDeploy } from '../../deploy/run'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { actorName } from './curate'
import { coded } from '../../../shared/error-codes'

export const command: CliCommand = {
  name: 'undo',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench undo ID --library DIR | --root-dir DIR --user U [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_proposal_or_journal_id'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    // a deploy changed an agent's folder: its own undo puts that folder back
    const deployed = await findDeployRecord(opened.root, positionals[0]!)
    const record = deployed ? await undoDeploy(opened.root, deployed.id, actorName(values.user)) : await undoApplied(opened.root, positionals[0]!, actorName(values.user))
    if (values.json) printJson(io, { status: 'success', journal_id: record.id, undoes: record.undoes, proposal_id: record.proposal_id })
    else io.stdout(`Undone ${record.proposal_id}; journal entry ${record.id}.\n`)
    return 0
  }
}
