/**
 * Where a library's search daemon listens (a Unix socket beside its index in the private cache folder) and how a
 * client and a daemon tell they come from the same build. Light: the CLI's fast path loads only this and net.
 */
import fs from 'node:fs'
import path from 'node:path'
import { defaultCacheDir } from '../../cache-dir'

/**
 * Unix socket paths longer than this do not fit sockaddr_un everywhere (108 bytes on Linux, 104 on macOS); the name
 * a daemon binds before renaming its socket into place is 2 bytes longer (cli/search-daemon.ts).
 */
const MAX_SOCKET_PATH = 100

/** The folder of search indexes and daemons in the cache folder. */
export function searchCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(defaultCacheDir(env), 'search')
}

/**
 * A short name for `root` without loading node:crypto (FNV-1a, 64 bits): the fast path of a query spends its
 * milliseconds elsewhere. A clash costs nothing but speed: a daemon only answers for the root it serves.
 */
function socketKey(root: string): string {
  let h = 0xcbf29ce484222325n
  for (const byte of Buffer.from(root)) h = BigInt.asUintN(64, (h ^ BigInt(byte)) * 0x100000001b3n)
  return h.toString(16).padStart(16, '0')
}

/** The socket of the search daemon of `root` (its real path), or null where the path is too long for a socket. */
export function searchDaemonSocket(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform === 'win32') return null // named pipes are not set up: Windows answers in process
  const file = path.join(searchCacheDir(env), `${socketKey(root)}.sock`)
  return Buffer.byteLength(file) <= MAX_SOCKET_PATH ? file : null
}

/** The marker a process leaves while it starts a daemon (so concurrent queries do not each start one). */
export function startingMarker(socket: string): string {
  return socket.replace(/\.sock$/, '.starting')
}

let stamp: string | undefined
/** This build: a client only talks to a daemon made from the same code (after an update the old one steps down). */
export function buildStamp(): string {
  if (stamp === undefined) {
    let file: string
    try {
      const st = fs.statSync(__filename)
      file = `${__filename}:${st.size}:${st.mtimeMs}`
    } catch {
      file = __filename
    }
    stamp = `1:${process.version}:${file}`
  }
  return stamp
}

/** What `SKILLBENCH_SEARCH_SERVER` asks: off (never), on (for any library size), or auto (large libraries). */
export function searchDaemonMode(env: NodeJS.ProcessEnv): 'off' | 'on' | 'auto' {
  const v = (env.SKILLBENCH_SEARCH_SERVER ?? '').trim().toLowerCase()
  if (v === '0' || v === 'off' || v === 'no' || v === 'false') return 'off'
  if (v === '1' || v === 'on' || v === 'yes' || v === 'true') return 'on'
  return 'auto'
}

/** Libraries with at least this many active skills get a search daemon in `auto` mode (below, a query is quick anyway). */
export const AUTO_DAEMON_MIN_SKILLS = 2000
