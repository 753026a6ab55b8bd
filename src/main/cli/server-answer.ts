/**
 * The fast path of `query` and `list`: the library's search server answers when one runs (only this module, the
 * address and — when a socket exists — the socket client are loaded). Null: the command answers in process.
 */
import fs from 'node:fs'
import type { CliIo } from './common'
import { searchServerMode, searchServerSocket } from '../search/server/address'
import type { Question } from '../search/server/client'

/** The socket of `root`'s search server to use, or null (switched off by `--no-server` or the environment). */
export function serverSocketFor(root: string | null, io: CliIo, noServer: boolean): string | null {
  return root && !noServer && searchServerMode(io.env) !== 'off' ? searchServerSocket(root, io.env) : null
}

/** Prints the server's answer and returns the exit code; null when there is none to print. */
export async function answerFromServer(io: CliIo, socket: string | null, question: Question): Promise<number | null> {
  // No socket file, no server: the client module and a connection attempt are not paid for.
  if (!socket || !fs.existsSync(socket)) return null
  const trace = io.env.SKILLBENCH_SEARCH_TRACE === '1' ? (line: string) => io.stderr(`[search] ${line}\n`) : () => undefined
  const { askSearchServer } = await import('../search/server/client')
  const asked = await askSearchServer(socket, question)
  if (!('answered' in asked)) {
    trace(asked.fallback)
    return null
  }
  trace(`answered by the search server in ${asked.ms} ms`)
  if (asked.answered.stdout.length > 0) io.stdout(asked.answered.stdout)
  if (asked.answered.stderr) io.stderr(asked.answered.stderr)
  return asked.answered.code
}
