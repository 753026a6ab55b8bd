/** Long jobs as every transport reports them (apart from api.ts so the contract's parts can name them without a circle). */
export type JobKind = 'reflect' | 'curate' | 'sync'

export interface JobInfo {
  jobId: string
  kind: JobKind
  startedAt: string
  state: 'running' | 'done' | 'failed' | 'cancelled'
}
