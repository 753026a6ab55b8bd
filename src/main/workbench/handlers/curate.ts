/** Curation of a library (a job that reads real usage first) and the review of its plan: accept, reject, undo, unreject. */
import type { ApiHandlers } from '../../../shared/api'
import type { WorkbenchContext } from '../context'
import { reasonOf } from '../../../shared/api-error'
import { codedLine } from '../../../shared/error-codes'

export type CurateMethods = 'curate.start' | 'curate.plan' | 'curate.accept' | 'curate.reject' | 'curate.unreject' | 'curate.journal' | 'curate.undo'

export function curateHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, CurateMethods> {
  const { registry, core, storeFor } = ctx
  return {
    'curate.start': async ({ library, llm }) => {
      const info = await registry.requireLibrary(library)
      const store = await storeFor(library)
      const client = await ctx.llmFor(llm)
      const settings = ctx.settingsStore.settings
      return ctx.jobs.start('curate', async (job) => {
        // real usage first: cleanup must not retire what an agent used, and failing skills get a review
        job.progress({ fraction: 0, stage: 'usage', ...codedLine('curate.reading_usage') })
        const report = await ctx.usage.reportFor(info.path, job.signal, (line) => job.progress({ fraction: 0, stage: 'usage', ...line })).catch((err: unknown) => {
          if (job.signal.aborted) throw err
          job.progress({ fraction: 0, stage: 'log', ...codedLine('curate.usage_not_read', { reason: reasonOf(err) }) })
          return undefined
        })
        const plan = await core.curatePlan(store, settings, client, job, report)
        return { library: info.path, plan }
      })
    },

    'curate.plan': async ({ library }) => {
      const store = await storeFor(library)
      const { plan, computedAt } = await core.readPlan(store)
      return { ...plan, library: (await registry.requireLibrary(library)).path, computedAt }
    },

    'curate.accept': async ({ library, proposalId, edited }) => {
      const store = await storeFor(library)
      return core.accept(store, proposalId, edited)
    },

    'curate.reject': async ({ library, proposalId }) => {
      const store = await storeFor(library)
      return core.reject(store, proposalId)
    },

    'curate.unreject': async ({ library, proposalId }) => {
      const store = await storeFor(library)
      return core.unreject(store, proposalId)
    },

    'curate.journal': async ({ library }) => {
      const store = await storeFor(library)
      return core.journal(store)
    },

    'curate.undo': async ({ library, entryId }) => {
      const store = await storeFor(library)
      return core.undo(store, entryId)
    }
  }
}
