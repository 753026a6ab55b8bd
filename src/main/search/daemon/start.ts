/** Starting a library's search daemon in the background (after a query answered in process). */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { startingMarker } from './address'

/** A marker younger than this means a daemon is being started (older: that start failed). */
const STARTING_FRESH_MS = 30_000

/**
 * Starts the search daemon of `root` in the background (detached, no terminal output), unless a process started
 * one in the last seconds. `command`: how to run this CLI (node and its script).
 */
export function startSearchDaemon(command: readonly string[], root: string, socket: string, env: NodeJS.ProcessEnv): boolean {
  const marker = startingMarker(socket)
  try {
    const st = fs.lstatSync(marker, { throwIfNoEntry: false })
    if (st && Date.now() - st.mtimeMs < STARTING_FRESH_MS) return false
    if (st) fs.rmSync(marker, { force: true })
    // Exclusive: of several queries that fell back at once, one starts the daemon.
    fs.mkdirSync(path.dirname(marker), { recursive: true, mode: 0o700 })
    fs.writeFileSync(marker, String(process.pid), { flag: 'wx', mode: 0o600 })
  } catch {
    return false
  }
  try {
    const [exe, ...args] = command
    const child = spawn(exe!, [...args, 'search-server', '--library', root], { detached: true, stdio: 'ignore', env, cwd: root, windowsHide: true })
    child.on('error', () => fs.rmSync(marker, { force: true }))
    child.unref()
    return true
  } catch {
    fs.rmSync(marker, { force: true })
    return false
  }
}
