/**
 * Keeps what the UI knows about running and finished jobs (progress, per-task state, log lines),
 * fed by pushed `job.*` events. Lives outside React so a job keeps its history while the user
 * moves between screens. Snapshots are immutable, for useSyncExternalStore.
 */
import type { ApiEvent, CurateSummary, JobInfo, JobKind, ReflectSummary, SyncSummary } from '../../shared/api'
import type { MessageRef } from '../../shared/error-codes'
import { ApiError, type ApiErrorShape } from '../../shared/api-error'

export type TaskRunState = 'running' | 'done' | 'failed' | 'skipped'

export interface JobView {
  jobId: string
  kind: JobKind
  state: JobInfo['state']
  startedAt: string
  fraction: number
  message: string
  /** The latest message's code and params when it came with them: the screens word it by code. */
  messageRef?: MessageRef
  /** The job's log, each line with its task and its code when it came with one (the log is worded by code too). */
  lines: JobLine[]
  /** Per task: its state, its latest message (with its code when it has one) and (while running) the step it is at. */
  tasks: Record<string, { state: TaskRunState; message: string; messageRef?: MessageRef; skillPath?: string; step?: string }>
  result?: ReflectSummary | CurateSummary | SyncSummary
  error?: string
  /** A failed job's error with its kind, code and params (absent from an older main process: `error` alone). */
  failure?: ApiErrorShape
}

/** One line of a job's log: its English text, the task it is about, its code and params when it came with them. */
export interface JobLine {
  text: string
  taskDir?: string
  ref?: MessageRef
}

const MAX_LINES = 500

/** A tiny observable store of jobs keyed by id. */
export class JobStore {
  private jobs: Record<string, JobView> = {}
  private listeners = new Set<() => void>()

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): Record<string, JobView> => this.jobs

  /** Records a job the UI just started (or found via jobs.list). */
  track(info: JobInfo): void {
    if (this.jobs[info.jobId]) return
    this.put({ jobId: info.jobId, kind: info.kind, state: info.state, startedAt: info.startedAt, fraction: info.state === 'done' ? 1 : 0, message: '', lines: [], tasks: {} })
  }

  /** Folds one pushed event into the job it belongs to. */
  apply(event: ApiEvent): void {
    if (event.type === 'job.progress') {
      const p = event.progress
      const job = this.jobs[p.jobId] ?? { jobId: p.jobId, kind: p.kind, state: 'running' as const, startedAt: new Date().toISOString(), fraction: 0, message: '', lines: [], tasks: {} }
      const tasks = { ...job.tasks }
      const messageRef = p.messageCode ? { messageCode: p.messageCode, params: p.params ?? {} } : undefined
      if (p.taskDir) {
        const state: TaskRunState | undefined =
          p.stage === 'task-start' ? 'running' : p.stage === 'task-done' ? 'done' : p.stage === 'task-failed' ? 'failed' : p.stage === 'task-skipped' ? 'skipped' : undefined
        const prev = tasks[p.taskDir]
        if (state) tasks[p.taskDir] = { state, message: p.message, messageRef, skillPath: p.skillPath ?? prev?.skillPath }
        else if (p.stage === 'task-step') tasks[p.taskDir] = { state: 'running', message: p.message, messageRef, step: p.step, skillPath: prev?.skillPath }
        else if (!prev) tasks[p.taskDir] = { state: 'running', message: p.message, messageRef }
      }
      // a step repeating (the model wait ticks) updates the task line, not the job log
      const repeat = p.stage === 'task-step' && p.taskDir !== undefined && job.tasks[p.taskDir]?.step === p.step
      const entry: JobLine = { text: p.message, ...(p.taskDir ? { taskDir: p.taskDir } : {}), ...(messageRef ? { ref: messageRef } : {}) }
      const line = p.message && !repeat ? [...job.lines, entry].slice(-MAX_LINES) : job.lines
      const latest = p.message ? { message: p.message, messageRef } : { message: job.message, messageRef: job.messageRef }
      this.put({ ...job, fraction: Math.max(0, Math.min(1, p.fraction)), ...latest, lines: line, tasks })
    } else if (event.type === 'job.done') {
      const job = this.jobs[event.jobId] ?? { jobId: event.jobId, kind: event.kind, state: 'running' as const, startedAt: new Date().toISOString(), fraction: 0, message: '', lines: [], tasks: {} }
      this.put({ ...job, state: event.state, fraction: event.state === 'done' ? 1 : job.fraction, result: event.result, error: event.error, failure: event.failure })
    }
  }

  private put(job: JobView): void {
    this.jobs = { ...this.jobs, [job.jobId]: job }
    for (const listener of [...this.listeners]) listener()
  }
}

/** The newest job of a kind, if any. */
export function latestJob(jobs: Record<string, JobView>, kind: JobKind): JobView | undefined {
  let best: JobView | undefined
  for (const job of Object.values(jobs)) if (job.kind === kind && (!best || job.startedAt >= best.startedAt)) best = job
  return best
}

/** A failed job's error for ErrorNotice: an ApiError with its code and params when they came, else its words. */
export function jobError(job: Pick<JobView, 'error' | 'failure'>): Error | null {
  if (job.failure) return new ApiError(job.failure.code, job.failure.message, job.failure)
  return job.error ? new Error(job.error) : null
}
