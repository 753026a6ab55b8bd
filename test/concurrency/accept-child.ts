/**
 * A long-lived child for the accept race: for each stdin line `ROOT PROPOSAL_ID` it accepts the proposal as
 * `skillbench accept` does (recover, then apply under the library lock) and prints one JSON line with the outcome.
 */
import readline from 'node:readline'
import { acceptProposal } from '../../src/main/review/decisions'
import { recoverTransactions } from '../../src/main/review/transactions'

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  const [root, id] = line.trim().split(' ') as [string, string]
  void (async () => {
    try {
      await recoverTransactions(root)
      await acceptProposal(root, id, 'race-test')
      process.stdout.write(JSON.stringify({ ok: true }) + '\n')
    } catch (err) {
      process.stdout.write(JSON.stringify({ ok: false, error: (err as Error).message }) + '\n')
    }
  })()
})
