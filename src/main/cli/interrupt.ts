/**
 * What Ctrl-C does in the CLI (pure, the process is passed in): while a command runs, the first press cancels it
 * and says so, the second quits at once; when nothing runs (the command has finished and only the process's
 * last writes are pending) it quits at once without a "Cancelling…" that would cancel nothing.
 */
import { coded } from '../../shared/error-codes'
import { say, type CliWords } from './lang'
export interface InterruptHooks {
  running: () => boolean
  abort: () => void
  write: (text: string) => void
  exit: (code: number) => void
  /** The words of the run's language (`--lang`), once they are known: "Cancelling…" is said in it. */
  words?: () => CliWords | undefined
}

/** What the first Ctrl-C says, in the language of `words` (English without). */
export function cancellingText(words?: CliWords): string {
  return `\n${say({ words }, coded('interrupt.cancelling'))}\n`
}

export const CANCELLING_TEXT = cancellingText()

/** A SIGINT listener with the behaviour above. */
export function interruptHandler(hooks: InterruptHooks): () => void {
  let cancelling = false
  return () => {
    if (cancelling || !hooks.running()) {
      hooks.exit(130)
      return
    }
    cancelling = true
    hooks.write(cancellingText(hooks.words?.()))
    hooks.abort()
  }
}
