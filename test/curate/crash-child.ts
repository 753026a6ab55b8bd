/**
 * Child process for the crash test: accepts one proposal, sleeping between ops so the parent's SIGKILL
 * can land anywhere (before, during, or after the transaction). Usage: crash-child.ts ROOT PROPOSAL_ID SLEEP_MS
 */
import { acceptProposal } from '../../src/main/curate/service'

async function main(): Promise<void> {
  const [root, id, sleepMs] = process.argv.slice(2)
  await acceptProposal(root!, id!, 'crash-test', {
    onStart: () => void process.stdout.write('ready\n'),
    afterOp: async (i) => {
      process.stdout.write(`op ${i}\n`)
      await new Promise((r) => setTimeout(r, Number(sleepMs)))
    }
  })
  process.stdout.write('done\n')
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exitCode = 1
})
