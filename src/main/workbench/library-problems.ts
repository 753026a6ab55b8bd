/**
 * Problems of a whole library that the app shows when it lists the library (Skills screen). Listing only reads:
 * - a change a crash interrupted that no write has finished yet (review.interrupted_pending): the next write to the
 *   library by any process finishes it (every write recovers first: review/recover-first.ts);
 * - what recoveries did, by any process, since the person last dismissed them (review/recovery-log.ts: a rollback,
 *   review.recover_*), kept on disk so a restarted app still shows them — and, when more is unseen than a listing
 *   reads, that older notices are not shown (review.recovery_log_unread / _more);
 * - why the last write of this process could not update index.json (index.*).
 */
import type { LibraryProblem } from '../../shared/api'
import { codedLine, type CodedLine, type MessageRef } from '../../shared/error-codes'
import { markRecoveriesSeen, readUnseenRecoveries, type UnseenRecoveries } from '../review/recovery-log'
import { interruptedTransactions } from '../review/transactions'

export interface LibraryProblemsAnswer {
  problems: LibraryProblem[]
  /** Present when some of `problems` are recoveries the person may dismiss: the log's offset they go up to. */
  dismissUpTo?: number
}

function problemOf(l: CodedLine): LibraryProblem {
  return { message: l.message, messageCode: l.messageCode, params: l.params }
}

/**
 * Every problem known for the library at `root`, read-only. `store`: the library's open store, whose last write says
 * how index.json fared. A file that does not read costs only its part of the notice (the listing itself goes on).
 */
export async function libraryProblems(root: string, store?: { indexJsonProblem: string | undefined; indexJsonProblemRef?: MessageRef }): Promise<LibraryProblemsAnswer> {
  const problems: LibraryProblem[] = []
  const unseen: UnseenRecoveries = await readUnseenRecoveries(root).catch(() => ({ records: [], end: 0 }))
  // what of the unseen part is not shown first (older than what is), then the records, oldest first
  const notShown = unseen.problems ?? []
  problems.push(...notShown.map(problemOf))
  for (const r of unseen.records) problems.push(...r.lines.map(problemOf))
  const dismissUpTo = unseen.records.length > 0 || notShown.length > 0 ? unseen.end : undefined
  for (const id of await interruptedTransactions(root).catch(() => [] as string[])) problems.push(problemOf(codedLine('review.interrupted_pending', { id })))
  if (store?.indexJsonProblem) problems.push({ message: store.indexJsonProblem, ...(store.indexJsonProblemRef ?? {}) })
  return dismissUpTo === undefined ? { problems } : { problems, dismissUpTo }
}

/** The person dismissed the recoveries shown, up to the log's offset `upTo` (later ones stay). Returns the new offset. */
export function dismissLibraryProblems(root: string, upTo: number): Promise<number> {
  return markRecoveriesSeen(root, upTo)
}
