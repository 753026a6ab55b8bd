import fs from 'node:fs'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, withRecovered, type CliCommand } from '../common'
import { answerFromDaemon, daemonSocketFor, startDaemonAfterAnswer } from '../daemon-answer'
import { coded } from '../../../shared/error-codes'
import { say } from '../lang'

const OPTIONS = {
  ...LIBRARY_OPTIONS,
  top: { type: 'string' },
  'no-touch': { type: 'boolean', default: false },
  'no-server': { type: 'boolean', default: false }
} as const

export const command: CliCommand = {
  name: 'query',
  options: OPTIONS,
  usage:
    'skillbench query "TEXT" (--library DIR | --root-dir DIR --user NAME) [--top N] [--no-touch] [--no-server] [--json]\n' +
    '  --top N      how many skills, 1 to 50 (default 3)\n' +
    '  --no-touch   do not count this as a use (fetch_count and last_used_at stay as they are)\n' +
    '  --no-server  answer in this process: neither ask nor start the library\'s search daemon\n' +
    '  --json       the query_skill answer, as agents get it',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    const text = positionals.join(' ').trim()
    if (!text) throw new UsageError(coded('cli.missing_query'))
    let top = 3
    if (values.top !== undefined) {
      top = Number(values.top)
      if (!Number.isInteger(top) || top < 1 || top > 50) throw new UsageError(coded('cli.whole_number_range', { option: '--top', min: 1, max: 50 }))
    }
    // the sample data bundled with Skillbench is never written: its query answers, not counted as a use (said on stderr)
    const bundled = values['no-touch'] ? undefined : await import('../bundled-sample')
    const sample = bundled?.inBundledSample(resolveLibraryDir(values, io.cwd), io.env)
    if (bundled && sample) io.stderr(`skillbench query: ${say(io, bundled.notCountedNotice(sample))}\n`)
    const touch = !values['no-touch'] && !sample
    const json = Boolean(values.json)

    // A running search daemon of this library answers without loading anything (only this module and net).
    let root: string | null = null
    try {
      root = fs.realpathSync(resolveLibraryDir(values, io.cwd))
    } catch {
      // A missing library is reported by the in-process path below, with the store's message.
    }
    const socket = daemonSocketFor(root, io, values['no-server'])
    const served = await answerFromDaemon(io, socket, { op: 'query', root: root ?? '', text, top, touch, json, via: 'cli' })
    if (served !== null) return served

    // In process: ranked from the persistent search index (only changed files are read); the library is not listed.
    const [{ servicesFromFlags }, { queryOutput }] = await Promise.all([import('../tool-support'), import('../query-output')])
    const services = await servicesFromFlags(values, io, 'cli')
    const lib = await services.library()
    const index = await services.index()
    const result = await (await services.tools({ index })).query_skill(text, { top, touch })
    const out = queryOutput(withRecovered(io, result), json, (m) => say(io, m))
    if (out.stdout) io.stdout(out.stdout)
    if (out.stderr) io.stderr(out.stderr)
    if (index.activeCount === 0) {
      const hint = await (await import('../empty-library-hint')).emptyLibraryHint(lib.root)
      if (hint) io.stderr(`skillbench query: ${say(io, hint)}\n`)
    }
    // The next query of a large library is answered by a daemon started now, in the background.
    await startDaemonAfterAnswer(io, lib.root, socket, index.activeCount)
    return out.code
  }
}
