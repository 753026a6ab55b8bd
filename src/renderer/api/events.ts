/**
 * Turns pushed events into react-query invalidations: the files are the truth, the UI re-reads.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { ApiEvent } from '../../shared/api'
import { queryKeys } from './query-keys'

/** Invalidates exactly the queries an event makes stale. */
export function invalidateForEvent(client: QueryClient, event: ApiEvent): void {
  switch (event.type) {
    case 'files.changed': {
      if (event.library) void client.invalidateQueries({ queryKey: queryKeys.library(event.library) })
      if (event.root) {
        void client.invalidateQueries({ queryKey: queryKeys.root(event.root) })
        void client.invalidateQueries({ queryKey: queryKeys.roots() })
        // a user's memory folder (<root>/<user>/memory by default) lives in the data root; and a new or finished
        // task there may use any library's skills
        void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'library' && (q.queryKey[2] === 'memory' || q.queryKey[2] === 'usage') })
      }
      if (!event.library && !event.root) {
        void client.invalidateQueries({ queryKey: ['library'] })
        void client.invalidateQueries({ queryKey: ['root'] })
      }
      void client.invalidateQueries({ queryKey: queryKeys.libraries() })
      return
    }
    case 'job.progress':
      // A finished task may have produced a skill: refresh task badges and lists as we go.
      if (event.progress.stage === 'task-done') {
        void client.invalidateQueries({ queryKey: ['root'] })
        void client.invalidateQueries({ queryKey: ['library'] })
      }
      return
    case 'job.done':
      void client.invalidateQueries({ queryKey: queryKeys.jobs() })
      if (event.kind === 'reflect') {
        void client.invalidateQueries({ queryKey: ['root'] })
        void client.invalidateQueries({ queryKey: ['session'] })
        void client.invalidateQueries({ queryKey: ['library'] })
        void client.invalidateQueries({ queryKey: queryKeys.libraries() })
      } else {
        const library = event.result && 'library' in event.result ? event.result.library : undefined
        void client.invalidateQueries({ queryKey: library ? queryKeys.library(library) : ['library'] })
      }
      return
    case 'settings.changed':
      void client.invalidateQueries({ queryKey: queryKeys.settings() })
      void client.invalidateQueries({ queryKey: queryKeys.sessions() })
      void client.invalidateQueries({ queryKey: queryKeys.roots() })
      void client.invalidateQueries({ queryKey: queryKeys.libraries() })
      return
  }
}
