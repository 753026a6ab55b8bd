/** The running and finished jobs: listed, cancelled. */
import { ApiError, type ApiHandlers } from '../../../shared/api'
import { coded } from '../../../shared/error-codes'
import type { WorkbenchContext } from '../context'

export type JobMethods = 'jobs.list' | 'jobs.cancel'

export function jobHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, JobMethods> {
  return {
    'jobs.list': async () => ctx.jobs.list(),

    'jobs.cancel': async ({ jobId }) => {
      const info = ctx.jobs.cancel(jobId)
      if (!info) {
        throw new ApiError('not_found', coded('api.no_job', { job: jobId }))
      }
      return info
    }
  }
}
