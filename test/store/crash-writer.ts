/**
 * Child process for the crash test: rewrites skills of a library in a loop until it is SIGKILLed.
 * Each write stores a body of identical lines `v<N>` and fetch_count = N, so a torn or mixed write is visible.
 * Some iterations move a skill to legacy/ or restore it, so moves are killed mid-way too.
 *
 * Usage: node crash-writer.js <libraryDir> <startN> <phase> <countdown>. It prints `ready` once loaded, waits for
 * a line on stdin (so the test can start the next writers while the current one runs), then prints `writing`.
 *
 * `phase` aims the kill at one step of the write protocol, at its `countdown`-th occurrence (so the library has
 * moved on a little first). The child SIGKILLs itself there, while the thread pool may be mid-syscall:
 *   after-open    the temp file exists, empty or partly written
 *   mid-write     one event-loop turn after the temp file's content write started
 *   after-sync    the temp file is complete and fsynced, not yet renamed
 *   before-rename right before a rename (of a temp file or of a skill being moved)
 *   after-rename  right after a rename, before the folder fsync
 *   external      never by itself: the test kills it from outside at a random moment
 * Just before a self-kill it writes `kill <phase> <tempFileExisted> <cpuMs>` to stdout (synchronously), so the test can
 * count what it hit. Hooks wrap `fs.promises` here in the child only; the store code runs unchanged.
 */
import fs from 'node:fs'
import { openLibrary } from '../../src/main/store/library'

export const CRASH_IDS = ['1900000001', '1900000002', '1900000003', '1900000004', '1900000005', '1900000006']
export const CRASH_MD_NAMES = ['crash-md-one', 'crash-md-two']
export const CRASH_PHASES = ['after-open', 'mid-write', 'after-sync', 'before-rename', 'after-rename', 'external'] as const
export type CrashPhase = (typeof CRASH_PHASES)[number]

/** The body written for version n. */
export function crashBody(n: number): string {
  return `v${n}\n`.repeat(8000)
}

function installHooks(phase: CrashPhase, countdown: number): void {
  let left = countdown
  let tempOpen = false
  const die = (): never => {
    const cpu = process.cpuUsage()
    fs.writeSync(1, `kill ${phase} ${tempOpen} ${Math.round((cpu.user + cpu.system) / 1000)}\n`)
    process.kill(process.pid, 'SIGKILL')
    throw new Error('unreachable')
  }
  const due = (): boolean => --left <= 0
  const p = fs.promises as { -readonly [K in keyof typeof fs.promises]: (typeof fs.promises)[K] }
  const open = p.open.bind(p)
  const rename = p.rename.bind(p)
  p.open = (async (file: fs.PathLike, flags?: string | number, mode?: fs.Mode) => {
    const fh = await open(file, flags, mode)
    if (!String(file).includes('.skillbench-tmp-')) return fh
    tempOpen = true
    if (phase === 'after-open' && due()) die()
    if (phase === 'mid-write' && due()) setImmediate(die)
    if (phase === 'after-sync') {
      const sync = fh.sync.bind(fh)
      fh.sync = async () => {
        await sync()
        if (due()) die()
      }
    }
    return fh
  }) as typeof p.open
  p.rename = async (from: fs.PathLike, to: fs.PathLike) => {
    if (phase === 'before-rename' && due()) die()
    await rename(from, to)
    if (String(from).includes('.skillbench-tmp-')) tempOpen = false
    if (phase === 'after-rename' && due()) die()
  }
}

async function main(dir: string, start: number, phase: CrashPhase, countdown: number): Promise<void> {
  process.stdout.write('ready\n')
  await new Promise((resolve) => process.stdin.once('data', resolve))
  const lib = await openLibrary(dir)
  const all = await lib.list({ includeLegacy: true })
  const ids = [...CRASH_IDS, ...all.skills.filter((s) => s.format === 'skill-md').map((s) => s.skill_id)]
  installHooks(phase, countdown)
  process.stdout.write('writing\n')
  for (let n = start; ; n++) {
    const id = ids[n % ids.length]!
    const skill = await lib.get(id, { includeLegacy: true })
    if (skill.legacy) await lib.restore(id)
    else if (n % 7 === 3) await lib.moveToLegacy(id)
    else await lib.update(id, { body: crashBody(n), meta: { fetch_count: n } }, { baseHash: skill.hash })
  }
}

if (process.argv[2]) {
  const phase = (process.argv[4] ?? 'external') as CrashPhase
  main(process.argv[2], Number(process.argv[3] ?? 1), phase, Number(process.argv[5] ?? 1)).catch((err: unknown) => {
    process.stderr.write(`crash-writer: ${(err as Error).message}\n`)
    process.exit(3)
  })
}
