import fs from 'node:fs'
import path from 'node:path'
import { acceptQueued, acceptResolved } from '../../review/queue'
import { openForCuration } from '../../curate/service'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { actorName } from './curate'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { ...LIBRARY_OPTIONS, from: { type: 'string' }, file: { type: 'string' } } as const

export const command: CliCommand = {
  name: 'accept',
  options: OPTIONS,
  usage:
    'skillbench accept ID --library DIR | --root-dir DIR --user U [--from FILE [--file PATH]] [--json]\n' +
    '  ID           any proposal `skillbench proposals` lists (the plan\'s, or an agent\'s edit / delete)\n' +
    '  --from FILE  accept with FILE\'s text as the result of the file the proposal changes (a conflict resolved by\n' +
    '               hand: refused while FILE still holds <<<<<<< … >>>>>>> markers); journaled and undoable as any accept\n' +
    '  --file PATH  which file of the proposal FILE is for, when it changes more than one (its path in `proposals ID`)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_proposal_id'))
    if (values.file !== undefined && values.from === undefined) throw new UsageError(coded('cli.file_needs_from'))
    const opened = await openForCuration(resolveLibraryDir(values, io.cwd))
    const id = positionals[0]!
    const by = actorName(values.user)
    const record =
      values.from === undefined
        ? await acceptQueued(opened.root, id, by)
        : await acceptResolved(opened.root, id, by, { text: fs.readFileSync(path.resolve(io.cwd, values.from), 'utf8'), from: values.from, ...(values.file !== undefined ? { file: values.file } : {}) })
    if (values.json) printJson(io, { status: 'success', journal_id: record.id, proposal_id: record.proposal_id, changes: record.changes.map((c) => c.path) })
    else io.stdout(`Applied ${record.proposal_id} (${record.kind}); journal entry ${record.id}. Undo with \`skillbench undo ${record.proposal_id}\`.\n`)
    return 0
  }
}
