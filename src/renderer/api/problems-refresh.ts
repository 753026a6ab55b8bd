/**
 * Keeps the Skills screen's notice of what recovery did current. It comes with `skills.list` (`problems`), and a
 * recovery another process ran (a CLI command, an agent's MCP call, a deploy) is logged in `.skillbench/`, which the
 * file watcher leaves out, and may change no skill file (one that failed, a deploy's), so the list is read again:
 * - when the person comes back: the window gains focus or the page becomes visible again. Only a list older than
 *   its query's staleTime (2 s in the app) is read, so a burst of focus changes reads it once; nothing runs on a
 *   timer, and a list nobody shows is only marked stale;
 * - after every change the app makes (a mutation settling, a failed one too: its write recovers before it fails).
 *   A mutation that already re-read the list costs one more read of it, only while the Skills screen shows it.
 */
import type { Query, QueryClient } from '@tanstack/react-query'

/** A library's skill list (queryKeys.skills): the query that carries its problems. */
function isSkillList(query: Query): boolean {
  const key = query.queryKey
  return key.length === 3 && key[0] === 'library' && key[2] === 'skills'
}

/** Starts listening; returns the function that stops. */
export function refreshProblemsOnReturn(client: QueryClient, win: Window = window): () => void {
  const doc = win.document
  // cancelRefetch false: a read already under way is the fresh one, not restarted
  const onReturn = (): void => void client.refetchQueries({ predicate: isSkillList, type: 'active', stale: true }, { cancelRefetch: false })
  const onVisibility = (): void => {
    if (doc.visibilityState === 'visible') onReturn()
  }
  win.addEventListener('focus', onReturn)
  doc.addEventListener('visibilitychange', onVisibility)
  const unsubscribe = client.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && (event.action.type === 'success' || event.action.type === 'error')) {
      // a read that starts now, after the change (one under way may have started before its recovery)
      void client.invalidateQueries({ predicate: isSkillList })
    }
  })
  return () => {
    win.removeEventListener('focus', onReturn)
    doc.removeEventListener('visibilitychange', onVisibility)
    unsubscribe()
  }
}
