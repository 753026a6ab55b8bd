import { parseCommandArgs, printJson, UsageError, type CliCommand } from '../common'
import { validatePath } from '../../formats/validate'
import path from 'node:path'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { json: { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'validate',
  options: OPTIONS,
  usage:
    'skillbench validate PATH [--json]   (exit 0 = no errors, 1 = errors found)\n' +
    '  warnings do not fail: a value read with a default (quality_index: high) is loaded, and `list` and the app name it too',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_one_path'))
    const report = await validatePath(path.resolve(io.cwd, positionals[0]!))
    if (values.json) printJson(io, report)
    else io.stdout((await import('../validate-output')).validateText(report))
    return report.errors > 0 ? 1 : 0
  }
}
