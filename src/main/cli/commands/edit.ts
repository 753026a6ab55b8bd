import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { reportToolResult, servicesFromFlags, skillIdArg } from '../tool-support'
import { EDIT_MODES } from '../../tools/skill-tools'
import { directToolWrite } from '../../mcp/direct-writes'
import { actorName } from './curate'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { ...LIBRARY_OPTIONS, mode: { type: 'string' }, text: { type: 'string' }, old: { type: 'string' } } as const

export const command: CliCommand = {
  name: 'edit',
  options: OPTIONS,
  usage: 'skillbench edit ID --mode full_replace|append|lines_replace --text TEXT [--old TEXT] (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.expected_one_id'))
    const id = skillIdArg(positionals[0])
    const mode = values.mode
    if (!mode || !(EDIT_MODES as readonly string[]).includes(mode)) throw new UsageError(coded('cli.must_be_one_of', { option: '--mode', choices: EDIT_MODES.join(', ') }))
    if (values.text === undefined) throw new UsageError(coded('cli.text_missing'))
    if (mode === 'lines_replace' && !values.old) throw new UsageError(coded('cli.lines_replace_needs_old'))
    if (mode !== 'lines_replace' && values.old !== undefined) throw new UsageError(coded('cli.old_only_lines_replace'))
    // listed at open, as before a change by id (a temp file a killed writer left is swept)
    const store = await (await servicesFromFlags(values, io)).library({ lazy: false })
    // journaled like an accepted proposal: the answer says how to undo it
    const args = { skill_id: id, edit_mode: mode, code_edit: values.text, ...(values.old !== undefined ? { old_code: values.old } : {}) }
    return reportToolResult(io, await directToolWrite(store, 'edit_skill', args, { by: actorName(values.user), author: 'cli' }), values.json, 'edit')
  }
}
