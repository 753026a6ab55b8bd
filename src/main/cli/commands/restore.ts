import { openForCuration } from '../../curate/service'
import { restoreSkill } from '../../review/decisions'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { actorName } from './curate'
import { coded } from '../../../shared/error-codes'
import { say } from '../lang'

export const command: CliCommand = {
  name: 'restore',
  options: LIBRARY_OPTIONS,
  usage: 'skillbench restore SKILL_ID --library DIR | --root-dir DIR --user U [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, LIBRARY_OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_skill_id'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const record = await restoreSkill(opened, positionals[0]!, actorName(values.user))
    const to = record.changes.find((c) => c.before === null)?.path
    if (values.json) printJson(io, { status: 'success', skill_id: positionals[0], path: to, journal_id: record.id })
    else {
      io.stdout(`Restored ${positionals[0]} to ${to}.\n`)
      io.stderr(`${say(io, coded('cli.undo_with', { command: `skillbench undo ${record.id}` }))}\n`)
    }
    return 0
  }
}
