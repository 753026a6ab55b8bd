import { LIBRARY_OPTIONS, parseCommandArgs, UsageError, type CliCommand } from '../common'
import { reportToolResult, servicesFromFlags, skillIdArg } from '../tool-support'
import { EDIT_MODES } from '../../tools/skill-tools'

const OPTIONS = { ...LIBRARY_OPTIONS, mode: { type: 'string' }, text: { type: 'string' }, old: { type: 'string' } } as const

export const command: CliCommand = {
  name: 'edit',
  usage: 'skillbench edit ID --mode full_replace|append|lines_replace --text TEXT [--old TEXT] (--library DIR | --root-dir DIR --user NAME) [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length !== 1) throw new UsageError('expected exactly one argument: ID')
    const id = skillIdArg(positionals[0])
    const mode = values.mode
    if (!mode || !(EDIT_MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be one of ${EDIT_MODES.join(', ')}`)
    if (values.text === undefined) throw new UsageError('missing --text TEXT')
    if (mode === 'lines_replace' && !values.old) throw new UsageError('lines_replace needs --old TEXT (the exact text to replace)')
    if (mode !== 'lines_replace' && values.old !== undefined) throw new UsageError('--old is only used with --mode lines_replace')
    // listed at open, as before a change by id (a temp file a killed writer left is swept)
    const tools = await (await servicesFromFlags(values, io)).tools({ lazy: false })
    return reportToolResult(io, await tools.edit_skill(id, mode, values.text, values.old), values.json, 'edit')
  }
}
