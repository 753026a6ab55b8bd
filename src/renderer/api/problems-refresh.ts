/**
 * Keeps the Skills screen's notice of what recovery did current. It comes with `skills.list` (`problems`), and a
 * recovery another process ran (a CLI command, an agent's MCP call, a deploy) is logged in `.skillbench/` and may
 * change no skill file (one that failed, a deploy's). The file watcher reports that log's change like any other
 * file's (only lock and temporary files, and the app's own writes, are left out); so that the notice does not hang on
 * one watch event (a watch can miss events on a busy machine), the list is also read again:
 * - when the person comes back: the window gains focus or the page becomes visible again. Only a list older than
 *   its query's staleTime (2 s in the app) is read, so a burst of focus changes reads it once; nothing runs on a
 *   timer, and a list nobody shows is only marked stale;
 * - after every change the app makes (a mutation settling, a failed one too: its write recovers before it fails),
 *   once: the list is marked stale the moment the change's call returns (a read then under way, which may predate
 *   the change, is started again); when the mutation has settled, the list is read only if nothing read it since —
 *   the mutation's own invalidation (most re-read the library) is that one read, not followed by a second.
 */
import type { Mutation, MutationCacheNotifyEvent, Query, QueryClient } from '@tanstack/react-query'

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
  const stopChanges = rereadAfterChanges(client)
  return () => {
    win.removeEventListener('focus', onReturn)
    doc.removeEventListener('visibilitychange', onVisibility)
    stopChanges()
  }
}

/**
 * After each change the app makes, the skill lists shown are read once, by a read that starts after the change.
 * The mutation cache's own hooks run as the mutation's call returns, before its onSuccess/onError (which mostly
 * invalidate the library, reading the list): the list is marked stale there, without a read, and a read already
 * under way is started again (it may predate the change). Once the mutation has settled, a list still marked — no
 * read finished since the change — is read, joining one under way (the mutation's own) rather than restarting it.
 */
function rereadAfterChanges(client: QueryClient): () => void {
  const cache = client.getMutationCache()
  const hooks = cache.config
  const changed = (): void => {
    void client.invalidateQueries({ predicate: isSkillList, refetchType: 'none' })
    void client.refetchQueries({ predicate: (q) => isSkillList(q) && q.state.fetchStatus === 'fetching' })
  }
  const ours: typeof hooks = {
    ...hooks,
    onSuccess: (data, variables, context, mutation: Mutation<unknown, unknown, unknown>, fnContext) => {
      changed()
      return hooks.onSuccess?.(data, variables, context, mutation, fnContext)
    },
    onError: (error, variables, context, mutation: Mutation<unknown, unknown, unknown>, fnContext) => {
      changed()
      return hooks.onError?.(error, variables, context, mutation, fnContext)
    }
  }
  cache.config = ours
  const unsubscribe = cache.subscribe((event: MutationCacheNotifyEvent) => {
    if (event.type === 'updated' && (event.action.type === 'success' || event.action.type === 'error')) {
      void client.refetchQueries({ predicate: (q) => isSkillList(q) && q.state.isInvalidated, type: 'active' }, { cancelRefetch: false })
    }
  })
  return () => {
    unsubscribe()
    if (cache.config === ours) cache.config = hooks
  }
}
