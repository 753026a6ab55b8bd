import type { CliCommand } from '../common'

export const command: CliCommand = {
  name: 'version',
  options: {},
  usage: 'skillbench version',
  async run(_argv, io) {
    io.stdout('0.1.0\n')
    return 0
  }
}
