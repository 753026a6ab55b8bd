/**
 * The review engine's recovery as every host hands it to the store (`LibraryOptions.recover`, through
 * `openLibraryServices`): the CLI's skill commands, the MCP server, the search daemon and the app's library
 * services. The store runs it first inside the lock of each write — an agent's edit, rating, retirement, file
 * backup, or a query's usage fold — so the write never lands on the half of a change a crash interrupted (which
 * the later recovery would then have had to set aside as `review.recover_failed`). What it rolled back is kept in
 * `.skillbench/recovery-log` for the app, as for every recovery.
 *
 * Most writes find `.skillbench/tx/` empty: one readdir, and the engine's modules are loaded only when there is
 * something to finish (a warm query answered by the search daemon pays the readdir alone).
 */
import fs from 'node:fs'
import path from 'node:path'
import { TX_DIR } from './journal'

/** Finishes or rolls back what a crash interrupted (recoverTransactions) when `.skillbench/tx/` holds an intent. */
export async function recoverFirst(root: string): Promise<{ rolledBack: readonly string[] }> {
  // a cheap look; recoverTransactions looks again under the lock, never through a link
  const names = await fs.promises.readdir(path.join(root, TX_DIR)).catch(() => [] as string[])
  if (!names.some((n) => n.endsWith('.json'))) return { rolledBack: [] }
  const { recoverTransactions } = await import('./transactions')
  return recoverTransactions(root)
}
