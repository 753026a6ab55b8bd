import fs from 'node:fs'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { searchServerMode, searchServerSocket } from '../../search/server/address'

export { listJsonText, publicSkill, formatSkillTable } from '../list-output'

const OPTIONS = { ...LIBRARY_OPTIONS, legacy: { type: 'boolean', default: false }, 'no-server': { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'list',
  usage: 'skillbench list (--library DIR | --root-dir DIR --user NAME) [--legacy] [--no-server] [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`)
    const dir = resolveLibraryDir(values, io.cwd)
    let root: string
    try {
      root = fs.realpathSync(dir)
      if (!fs.statSync(root).isDirectory()) throw new Error('not a folder')
    } catch {
      const { StoreError } = await import('../../store/types')
      throw new StoreError('not_found', `library folder not found: ${dir}`)
    }
    const json = Boolean(values.json)
    // A running search server of this library has the listing in memory (it is not started for a listing).
    const socket = values['no-server'] || searchServerMode(io.env) === 'off' ? null : searchServerSocket(root, io.env)
    // No socket file, no server: the client module and a connection attempt are not paid for.
    if (socket && fs.existsSync(socket)) {
      const { askSearchServer } = await import('../../search/server/client')
      const asked = await askSearchServer(socket, { op: 'list', root, legacy: values.legacy, json })
      if ('answered' in asked) {
        if (io.env.SKILLBENCH_SEARCH_TRACE === '1') io.stderr(`[search] answered by the search server in ${asked.ms} ms\n`)
        io.stdout(asked.answered.stdout)
        if (asked.answered.stderr) io.stderr(asked.answered.stderr)
        return asked.answered.code
      }
    }
    // From the persistent search index: only files changed since it was saved are read.
    const [{ listTextsFromIndex }, { listOutput }] = await Promise.all([import('../../search/open'), import('../list-output')])
    io.stdout(listOutput(await listTextsFromIndex(root, { includeLegacy: values.legacy, env: io.env }), json))
    return 0
  }
}
