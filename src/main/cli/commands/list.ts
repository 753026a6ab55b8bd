import fs from 'node:fs'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { answerFromDaemon, daemonSocketFor, startDaemonAfterAnswer } from '../daemon-answer'
import { coded } from '../../../shared/error-codes'
import { say } from '../lang'

export { listJsonText, publicSkill, formatSkillTable } from '../list-output'

const OPTIONS = { ...LIBRARY_OPTIONS, legacy: { type: 'boolean', default: false }, 'no-server': { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'list',
  options: OPTIONS,
  usage:
    'skillbench list (--library DIR | --root-dir DIR --user NAME) [--legacy] [--no-server] [--json]\n' +
    '  --legacy     also the retired skills (legacy/), marked [legacy]\n' +
    '  --no-server  answer in this process: neither ask nor start the library\'s search daemon\n' +
    '  --json       {skills, errors, warnings}: every skill\'s fields, each file that failed to load with the reason,\n' +
    '               and each value a file was loaded with by default (quality_index: high, a missing fetch_count)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length > 0) throw new UsageError(coded('cli.unexpected_argument', { argument: positionals[0]! }))
    const dir = resolveLibraryDir(values, io.cwd)
    let root: string
    try {
      root = fs.realpathSync(dir)
    } catch {
      const { StoreError } = await import('../../store/types')
      throw new StoreError('not_found', coded('library.not_found', { path: dir }))
    }
    if (!fs.statSync(root).isDirectory()) {
      // a skill file given for its library is there, just not a folder: said as query and rate say it
      const { StoreError } = await import('../../store/types')
      throw new StoreError('invalid_input', coded('path.not_folder', { path: dir }))
    }
    const json = Boolean(values.json)
    // A running search daemon of this library has the listing in memory.
    const socket = daemonSocketFor(root, io, values['no-server'])
    const served = await answerFromDaemon(io, socket, { op: 'list', root, legacy: values.legacy, json })
    if (served !== null) return served
    // From the persistent search index: only files changed since it was saved are read.
    const [{ LibrarySearch }, { listOutput }] = await Promise.all([import('../../search/library-search'), import('../list-output')])
    // Opened once for this answer; the ranking arrays are never read.
    const listing = await new LibrarySearch(root, { env: io.env, ranking: false }).listing(values.legacy)
    io.stdout(listOutput(listing, json))
    // nothing at all (a data root given as --library, a wrong folder): say why, on stderr
    if (listing.skills.length === 0 && listing.errors.length === 0) {
      const hint = await (await import('../empty-library-hint')).emptyLibraryHint(root)
      if (hint) io.stderr(`skillbench list: ${say(io, hint)}\n`)
    }
    // As after a query: the next listing or query of a large library is answered by a daemon started now.
    await startDaemonAfterAnswer(io, root, socket, listing.skills.reduce((n, s) => (s.legacy ? n : n + 1), 0))
    return 0
  }
}
