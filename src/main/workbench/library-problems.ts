/**
 * Problems of a whole library that the app shows when it lists the library (Skills screen): what transaction
 * recovery could not set right (review.recover_*) and why the last write could not update index.json (index.*).
 * A recovery reports each problem once (it sets the interrupted change aside), so they are kept here for the
 * process's life, per library.
 */
import type { LibraryProblem } from '../../shared/api'
import type { CodedLine, MessageRef } from '../../shared/error-codes'
import { recoverTransactions, type RecoveryReport } from '../review/transactions'

/** Most problems kept per library (a library that keeps crashing should not grow the list without end). */
const MAX_KEPT = 50

export class LibraryProblems {
  private readonly recovered = new Map<string, CodedLine[]>()

  /** Keeps what a recovery of the library at `root` could not do. */
  noteRecovery(root: string, report: Pick<RecoveryReport, 'problemLines'>): void {
    if (report.problemLines.length === 0) return
    this.recovered.set(root, [...(this.recovered.get(root) ?? []), ...report.problemLines].slice(-MAX_KEPT))
  }

  /**
   * Finishes what a crash interrupted (one folder read when nothing was), then every problem known for the library.
   * `store`: the library's open store, whose last write says how index.json fared.
   */
  async of(root: string, store?: { indexJsonProblem: string | undefined; indexJsonProblemRef?: MessageRef }): Promise<LibraryProblem[]> {
    try {
      this.noteRecovery(root, await recoverTransactions(root))
    } catch {
      // busy (another process is mid-change) or unreadable: the next listing tries again
    }
    const out: LibraryProblem[] = (this.recovered.get(root) ?? []).map((l) => ({ message: l.message, messageCode: l.messageCode, params: l.params }))
    if (store?.indexJsonProblem) out.push({ message: store.indexJsonProblem, ...(store.indexJsonProblemRef ?? {}) })
    return out
  }
}
