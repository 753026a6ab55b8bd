/**
 * Child process for the recovery-log test: appends COUNT records tagged TAG to the library's recovery log, starting
 * when all PARTIES children are ready (each leaves a file in BARRIER and waits for the others'): they append at the
 * same moment however long each took to start (a start time on the clock was missed by a child started late on a
 * loaded machine, which then appended alone).
 * Usage: recovery-log-child.cjs ROOT TAG COUNT BARRIER PARTIES
 */
import fs from 'node:fs'
import path from 'node:path'
import { appendRecoveryLog } from '../../src/main/review/recovery-log'
import { codedLine } from '../../src/shared/error-codes'

async function main(): Promise<void> {
  const [root, tag, count, barrier, parties] = process.argv.slice(2)
  fs.writeFileSync(path.join(barrier!, `ready-${tag}`), '')
  const deadline = Date.now() + 30_000
  while (fs.readdirSync(barrier!).length < Number(parties) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
  for (let i = 0; i < Number(count); i++) {
    await appendRecoveryLog(root!, { rolled_back: [`${tag}-${i}`], lines: [codedLine('review.recover_rolled_back', { id: `${tag}-${i}`, proposal: 'p' })] })
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exitCode = 1
})
