/**
 * Child process for the crash tests: accepts one proposal (or restores one legacy skill), sleeping between
 * ops so the parent's SIGKILL can land anywhere (before, during, or after the transaction).
 * Usage: crash-child.ts ROOT PROPOSAL_ID|SKILL_ID SLEEP_MS [accept|restore]
 */
import { acceptProposal, restoreSkill } from '../../src/main/review/decisions'
import { openForCuration } from '../../src/main/curate/service'

async function main(): Promise<void> {
  const [root, id, sleepMs, mode = 'accept'] = process.argv.slice(2)
  const hooks = {
    onStart: () => void process.stdout.write('ready\n'),
    afterOp: async (i: number) => {
      process.stdout.write(`op ${i}\n`)
      await new Promise((r) => setTimeout(r, Number(sleepMs)))
    }
  }
  if (mode === 'restore') await restoreSkill(await openForCuration(root!), id!, 'crash-test', hooks)
  else await acceptProposal(root!, id!, 'crash-test', hooks)
  process.stdout.write('done\n')
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exitCode = 1
})
