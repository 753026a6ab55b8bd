/**
 * What Ctrl-C does in the CLI (pure, the process is passed in): while a command runs, the first press cancels it
 * and says so, the second quits at once; when nothing runs (the command has finished and only the process's
 * last writes are pending) it quits at once without a "Cancelling…" that would cancel nothing.
 */
export interface InterruptHooks {
  running: () => boolean
  abort: () => void
  write: (text: string) => void
  exit: (code: number) => void
}

export const CANCELLING_TEXT = '\nCancelling… (press Ctrl-C again to quit now)\n'

/** A SIGINT listener with the behaviour above. */
export function interruptHandler(hooks: InterruptHooks): () => void {
  let cancelling = false
  return () => {
    if (cancelling || !hooks.running()) {
      hooks.exit(130)
      return
    }
    cancelling = true
    hooks.write(CANCELLING_TEXT)
    hooks.abort()
  }
}
