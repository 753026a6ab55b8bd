/**
 * The fast path of `query` and `list`: the library's search daemon answers when one runs (only this module, the
 * address and — when a socket exists — the socket client are loaded). Null: the command answers in process, and
 * then starts the daemon of a large library for the next call.
 */
import fs from 'node:fs'
import type { CliIo } from './common'
import { AUTO_DAEMON_MIN_SKILLS, searchDaemonMode, searchDaemonSocket } from '../search/daemon/address'
import type { Question } from '../search/daemon/client'

/** The socket of `root`'s search daemon to use, or null (switched off by `--no-server` or the environment). */
export function daemonSocketFor(root: string | null, io: CliIo, noServer: boolean): string | null {
  return root && !noServer && searchDaemonMode(io.env) !== 'off' ? searchDaemonSocket(root, io.env) : null
}

/** `SKILLBENCH_SEARCH_TRACE=1`: who answered, on stderr. */
function tracer(io: CliIo): (line: string) => void {
  return io.env.SKILLBENCH_SEARCH_TRACE === '1' ? (line) => io.stderr(`[search] ${line}\n`) : () => undefined
}

/** Prints the daemon's answer and returns the exit code; null when there is none to print. */
export async function answerFromDaemon(io: CliIo, socket: string | null, question: Question): Promise<number | null> {
  // No socket file, no daemon: the client module and a connection attempt are not paid for.
  if (!socket || !fs.existsSync(socket)) return null
  const trace = tracer(io)
  const { askSearchDaemon } = await import('../search/daemon/client')
  const asked = await askSearchDaemon(socket, question)
  if (!('answered' in asked)) {
    trace(asked.fallback)
    return null
  }
  trace(`answered by the search daemon in ${asked.ms} ms`)
  if (asked.answered.stdout.length > 0) io.stdout(asked.answered.stdout)
  if (asked.answered.stderr) io.stderr(asked.answered.stderr)
  return asked.answered.code
}

/**
 * After an answer in process: starts `root`'s search daemon in the background when the library has at least
 * AUTO_DAEMON_MIN_SKILLS active skills (any size with SKILLBENCH_SEARCH_SERVER=on). True when one was started.
 */
export async function startDaemonAfterAnswer(io: CliIo, root: string, socket: string | null, activeSkills: number): Promise<boolean> {
  if (!socket || !io.selfCommand || (searchDaemonMode(io.env) !== 'on' && activeSkills < AUTO_DAEMON_MIN_SKILLS)) return false
  const { startSearchDaemon } = await import('../search/daemon/start')
  const started = startSearchDaemon(io.selfCommand, root, socket, io.env)
  if (started) tracer(io)('search daemon started')
  return started
}
