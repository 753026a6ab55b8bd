import fs from 'node:fs'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { searchDaemonSocket } from '../../search/daemon/address'
import { daemonAnswers } from '../../search/daemon/client'
import { coded } from '../../../shared/error-codes'

const OPTIONS = { ...LIBRARY_OPTIONS, stop: { type: 'boolean', default: false }, status: { type: 'boolean', default: false }, 'idle-minutes': { type: 'string' } } as const

export const command: CliCommand = {
  name: 'search-server',
  options: OPTIONS,
  usage: 'skillbench search-server (--library DIR | --root-dir DIR --user NAME) [--status | --stop] [--idle-minutes N]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS)
    let root: string
    try {
      root = fs.realpathSync(resolveLibraryDir(values, io.cwd))
    } catch {
      throw new Error(`library folder not found: ${resolveLibraryDir(values, io.cwd)}`)
    }
    const socket = searchDaemonSocket(root, io.env)
    if (!socket) throw new Error('the cache folder path is too long for a socket on this system: no search daemon')
    if (values.status || values.stop) {
      const up = await daemonAnswers(socket)
      if (values.stop && up) {
        // A daemon steps down within seconds once its socket file is gone (it checks every 2 s).
        fs.rmSync(socket, { force: true })
        io.stdout(`search daemon of ${root} asked to stop\n`)
      } else {
        io.stdout(`${up ? 'a search daemon answers' : 'no search daemon'} for ${root}\n`)
      }
      return 0
    }
    let idleMs: number | undefined
    if (values['idle-minutes'] !== undefined) {
      const m = Number(values['idle-minutes'])
      if (!(m > 0 && m <= 24 * 60)) throw new UsageError(coded('cli.idle_minutes_range'))
      idleMs = m * 60_000
    } else if (io.env.SKILLBENCH_SEARCH_SERVER_IDLE_MS) {
      idleMs = Math.max(100, Number(io.env.SKILLBENCH_SEARCH_SERVER_IDLE_MS) || 600_000)
    }
    const { runSearchDaemon } = await import('../search-daemon')
    const log = (line: string): void => io.stderr(`skillbench search-server: ${line}\n`)
    const onCheck = io.env.SKILLBENCH_SEARCH_TRACE === '1' ? (inPlace: boolean) => log(`checked: socket and library ${inPlace ? 'in place' : 'not in place'}`) : undefined
    const onRefresh = io.env.SKILLBENCH_SEARCH_TRACE === '1' ? () => log('refreshed: the index took in what changed') : undefined
    const onSave = io.env.SKILLBENCH_SEARCH_TRACE === '1' ? () => log('saved: the index went to the cache folder') : undefined
    return runSearchDaemon(root, { env: io.env, idleMs, log, onCheck, onRefresh, onSave })
  }
}
