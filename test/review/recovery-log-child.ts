/**
 * Child process for the recovery-log test: appends COUNT records tagged TAG to the library's recovery log, starting
 * at the wall-clock time GO_MS (so two children append at the same moment).
 * Usage: recovery-log-child.cjs ROOT TAG COUNT GO_MS
 */
import { appendRecoveryLog } from '../../src/main/review/recovery-log'
import { codedLine } from '../../src/shared/error-codes'

async function main(): Promise<void> {
  const [root, tag, count, go] = process.argv.slice(2)
  await new Promise((r) => setTimeout(r, Math.max(0, Number(go) - Date.now())))
  for (let i = 0; i < Number(count); i++) {
    await appendRecoveryLog(root!, { rolled_back: [`${tag}-${i}`], lines: [codedLine('review.recover_rolled_back', { id: `${tag}-${i}`, proposal: 'p' })] })
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exitCode = 1
})
