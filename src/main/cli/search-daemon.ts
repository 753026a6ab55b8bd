/**
 * The search daemon of one library: a background process that keeps the library's search index in memory, current
 * through file notifications (change-feed.ts; a stat of every file where those cannot be trusted), and answers
 * `skillbench query` and `list` over a Unix socket in the private cache folder, so they cost a Node start and a
 * round trip instead of loading the index. Answers are made by the same code as in process (services/library-services' tools +
 * queryOutput, listingOf + listOutput).
 *
 * It steps down — closes, removes its socket, saves its index — after `idleMs` without a question, when a client
 * of another build asks, when its socket is removed or taken over (a cache folder emptied, a newer daemon), or when
 * the library is gone. Questions are answered one at a time, in order.
 */
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { watchLibrary } from '../search/change-feed'
import { openLibraryServices } from '../services/library-services'
import { recoverFirst } from '../review/recover-first'
import { buildStamp, searchDaemonSocket, startingMarker } from '../search/daemon/address'
import { daemonAnswers } from '../search/daemon/client'
import { paceRefresh } from '../search/daemon/refresh-pace'
import { MAX_REQUEST_BYTES, parseRequest, type AnswerHeader, type DaemonRequest } from '../search/daemon/protocol'
import { listOutput } from './list-output'
import { queryOutput } from './query-output'
import { withRecovered } from './common'
import { recoveryCollector } from '../review/recovery-notices'

/** How long a connection may take to send its question. */
const REQUEST_TIMEOUT_MS = 10_000

export interface SearchDaemonOptions {
  env: NodeJS.ProcessEnv
  /** Steps down after this long without a question (default 10 minutes). */
  idleMs?: number
  /** How often it checks that its socket and library are still there (default 2 s). */
  checkMs?: number
  /** Progress lines (the command's stderr; nobody reads it when started in the background). */
  log?: (line: string) => void
  /** After each check of its socket and library (`SKILLBENCH_SEARCH_TRACE=1` prints it): whether both are in place. */
  onCheck?: (inPlace: boolean) => void
  /** After each refresh taken in without a question (`SKILLBENCH_SEARCH_TRACE=1` prints it). */
  onRefresh?: () => void
  /** After each save of its index made after changes (`SKILLBENCH_SEARCH_TRACE=1` prints it; not the one on stepping down). */
  onSave?: () => void
}

/** How soon after a change its index is saved: 2 s after a lone change (a few seconds, as ARCHITECTURE says). */
const SAVE_DELAY_MS = 2000
/**
 * While changes keep coming, at most one save per 5 s (each a ~5 MB delta file at 10,000 skills; every 2 s before):
 * the saved index stays within a few seconds of the files, as it was promised, the app's and the MCP server's too
 * (their `saveDelayMs` is 5 s). Older only costs the next process re-reading the files changed since, by stat.
 */
const SAVE_GAP_MS = 5000

/** Checks that the folder holding the socket is ours alone: a socket others can reach would answer them. */
function privateFolderProblem(dir: string): string | null {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const st = fs.lstatSync(dir)
  if (!st.isDirectory()) return `${dir} is not a folder`
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`
  if ((st.mode & 0o077) !== 0) return `${dir} can be read by other users (mode ${(st.mode & 0o777).toString(8)})`
  return null
}

/**
 * Which socket file is at `socket` (null: none): its inode and change time. The inode alone can be the number of a
 * file since removed, handed again to the next daemon's socket.
 */
function socketIdentity(socket: string): string | null {
  const st = fs.lstatSync(socket, { throwIfNoEntry: false, bigint: true })
  return st?.isSocket() ? `${st.ino}:${st.ctimeNs}` : null
}

/** The name a daemon with this pid binds under before renaming it to `socket` (see listen). */
function privateSocketName(socket: string, pid: number): string {
  return socket.replace(/\.sock$/, `.p${pid.toString(36)}`)
}

/** Whether a process with this pid runs (one of another user counts: it is not ours to judge). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

/**
 * Removes the private names of this socket left by daemons that died between binding and renaming (killed, or a
 * crash): nothing connects to them, they only clutter the folder. A name whose process still runs is left alone.
 */
function removeOrphanedNames(socket: string): void {
  const dir = path.dirname(socket)
  const prefix = path.basename(socket).replace(/\.sock$/, '.p')
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const tail = name.slice(prefix.length)
    const pid = /^[0-9a-z]{1,8}$/.test(tail) ? parseInt(tail, 36) : 0
    if (pid <= 0 || processRuns(pid)) continue
    const file = path.join(dir, name)
    if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSocket()) fs.rmSync(file, { force: true })
  }
}

/**
 * Listens on `socket`, unless another daemon answers there (false); a socket file left by a daemon that is gone is
 * replaced. The daemon is bound under a name of its own and then renamed into place: closing a Unix socket listener
 * unlinks the path it was bound to, so a daemon bound to the shared name that stepped down just after a newer one
 * took its place (`search-server --stop`, then a start within the old one's 2 s check) removed the newer one's
 * socket, and that one stepped down too.
 */
async function listen(server: net.Server, socket: string): Promise<boolean> {
  const bound = privateSocketName(socket, process.pid)
  fs.rmSync(bound, { force: true })
  removeOrphanedNames(socket)
  const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    server.once('error', resolve)
    server.listen(bound, () => {
      server.off('error', resolve)
      resolve(null)
    })
  })
  if (err) throw err
  const close = (): Promise<void> => new Promise((resolve) => server.close(() => resolve()))
  try {
    fs.chmodSync(bound, 0o600)
    if (await daemonAnswers(socket)) {
      await close()
      return false
    }
    const st = fs.lstatSync(socket, { throwIfNoEntry: false })
    if (st && !st.isSocket()) throw new Error(`${socket} is not a socket: not replaced`)
    fs.renameSync(bound, socket)
  } catch (e) {
    await close()
    throw e
  }
  return true
}

/** Runs the daemon of the library at `root` (its real path) until it steps down; returns the exit code. */
export async function runSearchDaemon(root: string, opts: SearchDaemonOptions): Promise<number> {
  const log = opts.log ?? (() => undefined)
  const socket = searchDaemonSocket(root, opts.env)
  if (!socket) {
    log('the socket path in the cache folder is too long for this system: no search daemon')
    return 1
  }
  const marker = startingMarker(socket)
  const folderProblem = privateFolderProblem(path.dirname(socket))
  if (folderProblem) {
    fs.rmSync(marker, { force: true })
    log(`not started: ${folderProblem}`)
    return 1
  }
  // A write seen is taken in soon after (not at the next question): the question then finds the index current.
  // While writes keep coming, at most once a second and once more after the last (refresh-pace.ts); never a second
  // one queued while one waits or runs (it returns the queue's turn it took).
  const refresh = paceRefresh(() => {
    if (closing) return
    // nothing it does fails the queue: the questions behind it wait on it (a trace sink that throws costs its line)
    queue = queue.then(() => warm().then(() => opts.onRefresh?.())).catch(() => undefined)
    return queue
  })
  const feed = watchLibrary(root, { onChange: () => refresh.poke() })
  if (feed.fallback) log(feed.fallback)
  // One library object for every question, opened lazily (no listing): like the app's, it stays current by stat
  // and by following the ledger, and a question does not pay ~2 ms for opening it again. Skills are located
  // through the index the question is answered from. A question's uses (and their fold) finish a change a crash
  // interrupted first, as every host's writes do.
  const services = await openLibraryServices(root, { env: opts.env, keep: true, feed, saveDelayMs: SAVE_DELAY_MS, saveGapMs: SAVE_GAP_MS, onSave: opts.onSave, recover: recoverFirst })
  const search = services.search!
  // Current, with its ranking arrays built (the first question would otherwise pay for them).
  const warm = async (): Promise<void> => void (await services.index({ full: true })).query('warm up', 1)
  let queue: Promise<void> = Promise.resolve()
  let closing = false
  try {
    await warm()
    await services.library()
  } catch (err) {
    fs.rmSync(marker, { force: true })
    services.close()
    log(`cannot open the library: ${(err as Error).message}`)
    return 1
  }

  const build = buildStamp()
  let idleTimer: NodeJS.Timeout | undefined
  let ownSocket: string | null = null
  let stopResolve: (why: string) => void = () => undefined
  const stopped = new Promise<string>((resolve) => (stopResolve = resolve))
  const stepDown = (why: string): void => {
    closing = true
    stopResolve(why)
  }

  type Answer = { header: AnswerHeader; stdout?: Buffer }
  const refuse = (reason: Extract<AnswerHeader, { ok: false }>['reason'], message?: string): Answer => ({ header: { ok: false, reason, ...(message ? { message } : {}) } })
  const answered = (out: { stdout: Buffer | string; stderr: string; code: number }): Answer => {
    const stdout = typeof out.stdout === 'string' ? Buffer.from(out.stdout) : out.stdout
    return { header: { ok: true, stderr: out.stderr, code: out.code, bytes: stdout.length }, stdout }
  }

  const answer = async (req: DaemonRequest): Promise<Answer> => {
    if (req.root !== root) return refuse('other-library')
    if (req.build !== build) {
      stepDown('a client of another build asked')
      return refuse('build')
    }
    if (closing) return refuse('closing')
    if (Date.now() > req.deadline) return refuse('late')
    try {
      if (req.op === 'list') return answered({ stdout: listOutput(await search.listing(req.legacy), req.json), stderr: '', code: 0 })
      const index = await services.index({ full: true })
      // a CLI query's uses are in the files when it answers; an MCP server's within seconds (one fold per burst)
      const tools = await services.tools({ index, via: req.via, foldUses: req.via === 'mcp' ? 'soon' : 'now' })
      // what recovery did for this question (its uses' write finished a change a crash interrupted) is the asking
      // command's to say, as when it answers in process: its stderr lines and --json's `recovered`
      const heard = recoveryCollector()
      const result = await heard.run(() => tools.query_skill(req.text, { top: req.top, touch: req.touch }))
      const out = queryOutput(withRecovered({ recovered: heard.entries }, result), req.json)
      return answered({ ...out, stderr: heard.entries.map((r) => `skillbench query: ${r.message}\n`).join('') + out.stderr })
    } catch (err) {
      // The library may be gone or unreadable: the client answers in process and reports it the usual way.
      return refuse('failed', (err as Error).message.split('\n')[0])
    }
  }

  const send = (conn: net.Socket, a: Answer): void => {
    if (conn.destroyed || conn.writableEnded) return
    conn.write(JSON.stringify(a.header) + '\n')
    if (a.stdout) conn.end(a.stdout)
    else conn.end()
  }

  const server = net.createServer((conn) => {
    resetIdle()
    // A client that connects and never finishes its question does not hold the daemon (or its stepping down).
    conn.setTimeout(REQUEST_TIMEOUT_MS, () => conn.destroy())
    const chunks: Buffer[] = []
    let size = 0
    conn.on('error', () => conn.destroy())
    conn.on('data', (chunk: Buffer) => {
      const nl = chunk.indexOf(10)
      chunks.push(nl === -1 ? chunk : chunk.subarray(0, nl))
      size += chunk.length
      if (size > MAX_REQUEST_BYTES) {
        send(conn, refuse('bad-request', 'request too large'))
        return
      }
      if (nl === -1) return
      conn.setTimeout(0) // the question is in: answering it may take a walk of the library
      conn.pause()
      const req = parseRequest(Buffer.concat(chunks).toString('utf8'))
      if (!req) {
        send(conn, refuse('bad-request'))
        return
      }
      queue = queue.then(async () => {
        send(conn, await answer(req))
        resetIdle()
      })
    })
  })

  const resetIdle = (): void => {
    clearTimeout(idleTimer)
    if (closing) return
    idleTimer = setTimeout(() => stepDown(`no question for ${Math.round((opts.idleMs ?? 600_000) / 1000)} s`), opts.idleMs ?? 600_000)
  }

  try {
    if (!(await listen(server, socket))) {
      fs.rmSync(marker, { force: true })
      services.close()
      log('another search daemon answers for this library')
      return 0
    }
  } catch (err) {
    fs.rmSync(marker, { force: true })
    services.close()
    log(`cannot listen on ${socket}: ${(err as Error).message}`)
    return 1
  }
  ownSocket = socketIdentity(socket)
  fs.rmSync(marker, { force: true })
  resetIdle()
  log(`search daemon of ${root} listening on ${socket}`)

  // The socket removed or replaced (cache folder emptied, a newer daemon) or the library gone: step down.
  const watchdog = setInterval(() => {
    if (socketIdentity(socket) !== ownSocket) stepDown('its socket was removed or replaced')
    else if (!fs.existsSync(root)) stepDown('the library is gone')
    opts.onCheck?.(!closing)
  }, opts.checkMs ?? 2000)
  const onSignal = (): void => stepDown('stopped')
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)

  const why = await stopped
  refresh.cancel()
  clearInterval(watchdog)
  clearTimeout(idleTimer)
  process.off('SIGTERM', onSignal)
  process.off('SIGINT', onSignal)
  // No new connection reaches a daemon without its socket file; questions already queued are refused (`closing`:
  // their clients answer in process) before it goes.
  if (socketIdentity(socket) === ownSocket) fs.rmSync(socket, { force: true })
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await queue
  await (await services.library()).settleUsage().catch(() => undefined) // the MCP uses still waiting for their fold
  services.close()
  log(`search daemon stepped down: ${why}`)
  return 0
}
