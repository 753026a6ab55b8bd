/** Sharing a library with a team through git: where it stands, and a sync job with progress. */
import type { ApiHandlers } from '../../../shared/api'
import type { WorkbenchContext } from '../context'

export type SyncMethods = 'sync.status' | 'sync.start'

/** How far along a sync is at each step (the steps take very different times; this is only for the bar). */
const STEP_FRACTION: Record<string, number> = { check: 0.02, commit: 0.1, fetch: 0.25, merge: 0.45, apply: 0.55, push: 0.9 }

export function syncHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, SyncMethods> {
  const env = ctx.deps.env ?? process.env
  return {
    'sync.status': async ({ library }) => {
      const info = await ctx.registry.requireLibrary(library)
      const { syncStatus } = await import('../../sync/status')
      return syncStatus(info.path, env)
    },

    'sync.start': async ({ library }) => {
      const info = await ctx.registry.requireLibrary(library)
      return ctx.jobs.start('sync', async (job) => {
        const { syncLibrary } = await import('../../sync/sync')
        const report = await syncLibrary({
          library: info.path,
          env,
          signal: job.signal,
          onProgress: (p) => {
            const base = STEP_FRACTION[p.step] ?? 0
            const span = p.step === 'apply' ? 0.35 : 0
            const fraction = p.total ? base + span * ((p.done ?? 0) / p.total) : base
            job.progress({ fraction, stage: p.step, message: p.message, messageCode: p.messageCode, params: p.params, ...(p.total ? { index: p.done ?? 0, total: p.total } : {}) })
          }
        })
        return { committed: report.committed, pulled: report.pulled, pushed: report.pushed, conflicts: report.conflicts, ...(report.notes.length ? { notes: report.notes } : {}) }
      })
    }
  }
}
