import { openForCuration } from '../../curate/service'
import { unrejectQueued } from '../../review/queue'
import { actorName } from './curate'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { coded } from '../../../shared/error-codes'

export const command: CliCommand = {
  name: 'unreject',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench unreject ID --library DIR | --root-dir DIR --user U [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_proposal_id'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const p = await unrejectQueued(opened.root, positionals[0]!, actorName(values.user))
    if (values.json) printJson(io, { status: 'success', proposal_id: p.id, proposal_status: p.status })
    else io.stdout(`Rejection of ${p.id} undone: it waits for review again (\`skillbench proposals\`; accept or reject it).\n`)
    return 0
  }
}
