/** Curation of a library (a job that reads real usage first) and the review of its plan: accept, reject, undo. */
import path from 'node:path'
import type { ApiHandlers } from '../../../shared/api'
import type { WorkbenchContext } from '../context'
import { reasonOf } from '../../../shared/api-error'
import { codedLine } from '../../../shared/error-codes'

export type CurateMethods = 'curate.start' | 'curate.plan' | 'curate.accept' | 'curate.reject' | 'curate.journal' | 'curate.undo'

export function curateHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, CurateMethods> {
  const { registry, core, storeFor, noteLibraryWrites } = ctx
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
        await ctx.selfWrites.note([path.join(store.root, '.skillbench', 'plan.json')])
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
      const entry = await core.accept(store, proposalId, edited)
      await noteLibraryWrites(store, entry.changes.map((c) => c.path))
      return entry
    },

    'curate.reject': async ({ library, proposalId }) => {
      const store = await storeFor(library)
      return core.reject(store, proposalId)
    },

    'curate.journal': async ({ library }) => {
      const store = await storeFor(library)
      return core.journal(store)
    },

    'curate.undo': async ({ library, entryId }) => {
      const store = await storeFor(library)
      const entry = await core.undo(store, entryId)
      await noteLibraryWrites(store, entry.changes.map((c) => c.path))
      return entry
    }
  }
}
