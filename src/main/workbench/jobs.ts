import { randomUUID } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ApiErrorShape } from '../../shared/api-error'
import type { ApiEvent, CurateSummary, JobInfo, JobKind, JobProgress, ReflectSummary, SyncSummary } from '../../shared/api'

type JobResult = ReflectSummary | CurateSummary | SyncSummary

/** What a job body gets: its abort signal and a progress reporter (jobId/kind filled in). */
export interface JobContext {
  jobId: string
  signal: AbortSignal
  progress(p: Omit<JobProgress, 'jobId' | 'kind'>): void
}

interface JobEntry {
  info: JobInfo
  controller: AbortController
  done: Promise<void>
}

/**
 * Long jobs (reflect, curate): id → AbortController, progress pushed as `job.progress`, the end as `job.done`.
 *
 * A job that throws is 'failed' with its error (its message, and its code and params for the app to word it by); a job whose signal was aborted is 'cancelled'
 * (its partial result, if it returned one, is still sent).
 */
export class JobRegistry {
  private readonly jobs = new Map<string, JobEntry>()

  constructor(
    private readonly emit: (event: ApiEvent) => void,
    /** The error as it crosses a transport (toApiErrorShape: its kind, English, code and params). */
    private readonly describeError: (err: unknown) => ApiErrorShape = (err) => ({ code: 'internal', message: err instanceof Error ? err.message : String(err) }),
    private readonly keepFinished = 50
  ) {}

  /** Starts a job; returns at once with its info. */
  start(kind: JobKind, body: (ctx: JobContext) => Promise<JobResult>): JobInfo {
    const jobId = `${kind}-${randomUUID()}`
    const controller = new AbortController()
    const info: JobInfo = { jobId, kind, startedAt: new Date().toISOString(), state: 'running' }
    const ctx: JobContext = {
      jobId,
      signal: controller.signal,
      // a line with its code and params when its producer gave them (error-codes.ts); a line without one is words,
      // which the app reads back itself (translateLine): nothing is guessed here
      progress: (p) => this.emit({ type: 'job.progress', progress: { ...p, jobId, kind } })
    }
    const run = async (): Promise<void> => {
      // let the caller receive the JobInfo before the first event
      await nextTurn()
      try {
        const result = await body(ctx)
        info.state = controller.signal.aborted ? 'cancelled' : 'done'
        this.emit({ type: 'job.done', jobId, kind, state: info.state, result })
      } catch (err) {
        info.state = controller.signal.aborted ? 'cancelled' : 'failed'
        const failure = this.describeError(err)
        this.emit({ type: 'job.done', jobId, kind, state: info.state, error: failure.message, failure })
      }
      this.prune()
    }
    this.jobs.set(jobId, { info, controller, done: run() })
    return { ...info }
  }

  list(): JobInfo[] {
    return [...this.jobs.values()].map((j) => ({ ...j.info }))
  }

  get(jobId: string): JobInfo | undefined {
    const job = this.jobs.get(jobId)
    return job ? { ...job.info } : undefined
  }

  /** Asks a running job to stop; the state becomes 'cancelled' when it has. Unknown id → undefined. */
  cancel(jobId: string): JobInfo | undefined {
    const job = this.jobs.get(jobId)
    if (!job) {
      return undefined
    }
    if (job.info.state === 'running') {
      job.controller.abort()
    }
    return { ...job.info }
  }

  /** Resolves when the job has finished (tests, dispose). */
  async wait(jobId: string): Promise<JobInfo | undefined> {
    const job = this.jobs.get(jobId)
    if (!job) {
      return undefined
    }
    await job.done
    return { ...job.info }
  }

  /** Cancels every running job and waits for all of them. */
  async dispose(): Promise<void> {
    for (const job of this.jobs.values()) {
      job.controller.abort()
    }
    await Promise.all([...this.jobs.values()].map((j) => j.done))
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.info.state !== 'running')
    for (const job of finished.slice(0, Math.max(0, finished.length - this.keepFinished))) {
      this.jobs.delete(job.info.jobId)
    }
  }
}
