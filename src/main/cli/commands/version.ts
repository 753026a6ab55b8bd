import { parseCommandArgs, type CliCommand } from '../common'

/** No options (the CLI's --lang aside, which main takes out): any other is bad usage, as for every command. */
const OPTIONS = {} as const

export const command: CliCommand = {
  name: 'version',
  options: OPTIONS,
  usage: 'skillbench version',
  async run(argv, io) {
    parseCommandArgs(argv, OPTIONS, false)
    io.stdout('0.1.0\n')
    return 0
  }
}
