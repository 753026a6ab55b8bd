import { openForCuration } from '../../curate/service'
import { rejectQueued } from '../../review/queue'
import { actorName } from './curate'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { coded } from '../../../shared/error-codes'

export const command: CliCommand = {
  name: 'reject',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench reject ID --library DIR | --root-dir DIR --user U [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_proposal_id'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const p = await rejectQueued(opened.root, positionals[0]!, actorName(values.user))
    if (values.json) printJson(io, { status: 'success', proposal_id: p.id, proposal_status: p.status, ...(p.rejected ? { rejected: p.rejected } : {}) })
    else io.stdout(`Rejected ${p.id}.${p.fingerprint ? ' It stays rejected until one of its skills changes (see `skillbench proposals --all`).' : ''} Undo with \`skillbench unreject ${p.id}\`.\n`)
    return 0
  }
}
