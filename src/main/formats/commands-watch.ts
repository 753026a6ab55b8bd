/**
 * `gen-commands --watch`: seed 001 §4.5.8's optional auto-update component. The wrappers are generated once, then
 * again shortly after anything changes in the library (a script added, edited or removed, a skill folder added,
 * renamed or removed): generation compares each wrapper with what it would write, so a regeneration rewrites only
 * the wrappers whose script changed and moves aside the ones whose script is gone.
 *
 * Notifications come from one recursive fs.watch of the library. Our own writes (a bin folder inside the library)
 * and bookkeeping folders are ignored, so a regeneration never triggers the next.
 */
import fs from 'node:fs'
import path from 'node:path'
import { isTempName } from '../store/atomic'
import { generateCommands, STALE_DIR, type CommandsReport } from './commands-gen'

/** Quiet time after the last notification before regenerating (an editor's save is several events). */
const DEBOUNCE_MS = 250

export interface WatchCommandsOptions {
  signal: AbortSignal
  /** Each generation's report (the first one too). */
  onReport: (report: CommandsReport) => void
  /** A generation that failed (the watch goes on; the next change tries again). */
  onError: (err: Error) => void
  /** Said after the first report; the watch is up since before the first generation: any change from now on regenerates. */
  onWatching?: () => void
  debounceMs?: number
}

/** Whether a change at this library-relative path can change the commands. Pure. */
export function affectsCommands(rel: string, binRel: string | null): boolean {
  const parts = rel.split(/[\\/]/)
  if (binRel !== null && (rel === binRel || rel.startsWith(binRel + '/'))) return false
  if (parts.some((p) => p === '.git' || p === '.skillbench' || p === 'node_modules' || p === STALE_DIR)) return false
  return !isTempName(parts[parts.length - 1] ?? '')
}

/** Generates the commands, then keeps them current until `signal` aborts. */
export async function watchCommands(libraryDir: string, binDir: string, opts: WatchCommandsOptions): Promise<void> {
  const root = await fs.promises.realpath(libraryDir)
  let running = false
  let again = false
  const generate = async (): Promise<void> => {
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        try {
          opts.onReport(await generateCommands(root, binDir))
        } catch (err) {
          opts.onError(err as Error)
        }
      } while (again && !opts.signal.aborted)
    } finally {
      running = false
    }
  }
  // The watch starts before the first generation (fs.watch has set up every folder's watch when it returns), so a
  // change made while it scans, or right after, is never lost: until the bin folder's real path is known (the first
  // generation makes the folder), notifications are kept, then checked once.
  let binRel: string | null | undefined // undefined while the first generation runs
  const early: (string | null)[] = []
  let timer: NodeJS.Timeout | undefined
  const schedule = (): void => {
    clearTimeout(timer)
    timer = setTimeout(() => void generate(), opts.debounceMs ?? DEBOUNCE_MS)
  }
  const watcher = fs.watch(root, { recursive: true }, (_event, name) => {
    const rel = name === null ? null : String(name)
    if (binRel === undefined) early.push(rel)
    else if (rel === null || affectsCommands(rel, binRel)) schedule()
  })
  let broken = false
  // The watch's error while the first generation runs (Node's recursive watch on Linux fails on a folder it cannot
  // read again, e.g. one holding a symbolic-link loop, re-read when the generation makes the bin folder in it) is
  // said after that generation's report: the commands were still written, then the watch ended.
  const held: Error[] = []
  const ended = new Promise<void>((resolve) => {
    watcher.on('error', (err) => {
      broken = true
      if (binRel === undefined) held.push(err)
      else opts.onError(err)
      resolve()
    })
    if (opts.signal.aborted) resolve()
    opts.signal.addEventListener('abort', () => resolve(), { once: true })
  })
  try {
    // The first generation's failure (Windows, an unreadable library) ends the watch: nothing would ever work.
    opts.onReport(await generateCommands(root, binDir))
    const bin = await fs.promises.realpath(binDir)
    binRel = bin === root || bin.startsWith(root + path.sep) ? path.relative(root, bin).split(path.sep).join('/') : null
  } catch (err) {
    watcher.close()
    for (const e of held) opts.onError(e)
    throw err
  }
  for (const e of held.splice(0)) opts.onError(e)
  // a change during the first generation: one more (its own writes to the bin folder are not changes)
  if (early.some((rel) => rel === null || affectsCommands(rel, binRel as string | null))) schedule()
  // "watching" means a change from now on is seen: true since before the first generation
  if (!broken) opts.onWatching?.()
  await ended
  clearTimeout(timer)
  watcher.close()
  while (running) await new Promise((r) => setTimeout(r, 20))
}
