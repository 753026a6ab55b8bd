/**
 * Child process for the crash test: rewrites skills of a library in a tight loop until it is SIGKILLed.
 * Each write stores a body of identical lines `v<N>` and fetch_count = N, so a torn or mixed write is visible.
 * Some iterations move a skill to legacy/ or restore it, so moves are killed mid-way too.
 *
 * Usage: node crash-writer.js <libraryDir> <startN>. It prints `ready` once loaded, waits for a line on stdin
 * (so the test can start the next writers while the current one runs), then prints `writing` and loops.
 */
import { openLibrary } from '../../src/main/store/library'

export const CRASH_IDS = ['1900000001', '1900000002', '1900000003', '1900000004', '1900000005', '1900000006']
export const CRASH_MD_NAMES = ['crash-md-one', 'crash-md-two']

/** The body written for version n. */
export function crashBody(n: number): string {
  return `v${n}\n`.repeat(8000)
}

async function main(dir: string, start: number): Promise<void> {
  process.stdout.write('ready\n')
  await new Promise((resolve) => process.stdin.once('data', resolve))
  const lib = await openLibrary(dir)
  const all = await lib.list({ includeLegacy: true })
  const ids = [...CRASH_IDS, ...all.skills.filter((s) => s.format === 'skill-md').map((s) => s.skill_id)]
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
  main(process.argv[2], Number(process.argv[3] ?? 1)).catch((err: unknown) => {
    process.stderr.write(`crash-writer: ${(err as Error).message}\n`)
    process.exit(3)
  })
}
