import fs from 'node:fs'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { answerFromServer, serverSocketFor } from '../server-answer'

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
    const served = await answerFromServer(io, serverSocketFor(root, io, values['no-server']), { op: 'list', root, legacy: values.legacy, json })
    if (served !== null) return served
    // From the persistent search index: only files changed since it was saved are read.
    const [{ listTextsFromIndex }, { listOutput }] = await Promise.all([import('../../search/open'), import('../list-output')])
    io.stdout(listOutput(await listTextsFromIndex(root, { includeLegacy: values.legacy, env: io.env }), json))
    return 0
  }
}
