/**
 * Auto-enhance (issue 6): with the `autoEnhance` setting on, every scan of a data root that finds new
 * finished tasks starts a reflection job with create / enhance / none decisions, so enhancements land as
 * pending proposals (Curate screen) and creations as skills. Progress shows like any reflection job.
 *
 * "New" = finished (completed or interrupted) since the switch was turned on (task mtime), and never handed
 * to an auto run before: turning the switch on does not reflect the whole history (that is a click on
 * Reflect), and a task is auto-reflected at most once, whatever the outcome (the model is never paid twice
 * for one task). Tasks already reflected or with an enhancement pending are skipped by the run itself.
 * The state (switch time, tasks handed over) is kept in `<settings dir>/auto-enhance.json`.
 * With long-term memory on, the same run also proposes what the tasks teach into each user's memory (lessons,
 * preferences, a procedural note), as `reflect --evolve-memory` does: reviewed in Curate like the rest.
 */
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import type { JobInfo, ReflectSummary } from '../../shared/api'
import type { ScanResult, Settings, TaskTrace } from '../../shared/types'
import type { LlmClient } from '../llm/types'
import { codedLine } from '../../shared/error-codes'
import type { CoreModules } from './core-modules'
import type { MemoryEvolution } from '../reflect/run-reflection'
import { writeFileAtomic } from '../store/atomic'
import type { JobRegistry } from './jobs'

export const AUTO_ENHANCE_FILE = 'auto-enhance.json'
/** Tasks remembered as handed over (oldest forgotten first). */
const MAX_REMEMBERED = 50_000
/** Clock and file-time granularity: a task finished this long before the switch still counts as new. */
const SLACK_MS = 2_000

export interface AutoEnhanceState {
  /** When the switch was last turned on (ISO), or null while off. */
  since: string | null
  /** Absolute task paths already handed to an auto run. */
  processed: string[]
}

/** The new finished tasks of a scan: finished since `since`, not yet handed over. Pure. */
export function newFinishedTasks(tasks: readonly TaskTrace[], since: number, processed: ReadonlySet<string>): TaskTrace[] {
  return tasks.filter((t) => (t.status === 'completed' || t.status === 'interrupted') && t.mtime >= since - SLACK_MS && !processed.has(t.path))
}

export interface AutoEnhancerDeps {
  settingsDir: string
  settings: () => Settings
  core: CoreModules
  jobs: JobRegistry
  llm: () => Promise<LlmClient | undefined>
  /** A fresh scan of a root (used when new tasks arrived while a run was going). */
  scanRoot: (root: string) => Promise<ScanResult>
  afterReflect: (summary: ReflectSummary) => Promise<void>
  /** The run's memory step (memory-service's autoMemoryEvolution): the same tasks proposed into memory, or undefined (off). */
  evolveMemory?: (root: string) => MemoryEvolution | undefined
  now?: () => Date
}

/** Starts at most one auto run at a time; scans arriving meanwhile are looked at again when it ends. */
export class AutoEnhancer {
  private state: AutoEnhanceState = { since: null, processed: [] }
  private processed = new Set<string>()
  private running: Promise<void> | undefined
  private again = new Set<string>()
  private saving: Promise<void> = Promise.resolve()
  private disposed = false
  /** Jobs started by auto-enhance (tests and the host may wait for them). */
  readonly startedJobs: JobInfo[] = []

  constructor(private readonly deps: AutoEnhancerDeps) {}

  private get file(): string {
    return path.join(this.deps.settingsDir, AUTO_ENHANCE_FILE)
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date()
  }

  /** Reads the state file; with the switch on and no start time yet, starts counting now. */
  async load(): Promise<void> {
    try {
      const data = JSON.parse(await fsp.readFile(this.file, 'utf8')) as Partial<AutoEnhanceState>
      this.state = {
        since: typeof data.since === 'string' && !Number.isNaN(Date.parse(data.since)) ? data.since : null,
        processed: Array.isArray(data.processed) ? data.processed.filter((p): p is string => typeof p === 'string') : []
      }
    } catch {
      // missing or damaged: start fresh (worst case a task is offered once more)
    }
    this.processed = new Set(this.state.processed)
    await this.settingsChanged()
  }

  /** Follows the switch: turning it on starts counting "new" from now; turning it off forgets the time. */
  async settingsChanged(): Promise<void> {
    const on = this.deps.settings().autoEnhance
    if (on && !this.state.since) {
      this.state = { ...this.state, since: this.now().toISOString() }
      await this.save()
    } else if (!on && this.state.since) {
      this.state = { ...this.state, since: null }
      await this.save()
    }
  }

  /** Called after every scan of a data root. */
  onScan(root: string, result: ScanResult): void {
    if (this.disposed || !this.deps.settings().autoEnhance || !this.state.since) return
    if (this.running) {
      this.again.add(root)
      return
    }
    const tasks = newFinishedTasks(result.tasks, Date.parse(this.state.since), this.processed)
    if (tasks.length === 0) return
    this.running = this.run(root, tasks).finally(() => {
      this.running = undefined
      const roots = [...this.again]
      this.again.clear()
      for (const r of roots) {
        void this.deps
          .scanRoot(r)
          .then((res) => this.onScan(r, res))
          .catch(() => undefined)
      }
    })
  }

  /** Resolves when no auto run is going (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running
    await this.saving
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await this.running?.catch(() => undefined)
    await this.saving
  }

  private async run(root: string, tasks: TaskTrace[]): Promise<void> {
    for (const t of tasks) this.remember(t.path)
    await this.save()
    const settings = this.deps.settings()
    const llm = await this.deps.llm().catch(() => undefined)
    const info = this.deps.jobs.start('reflect', async (ctx) => {
      ctx.progress({ fraction: 0, stage: 'log', ...codedLine('reflect.auto_enhance', { n: tasks.length, root: path.basename(root) }) })
      const evolveMemory = this.deps.evolveMemory?.(root)
      const summary = await this.deps.core.reflect({ root, traces: tasks, decide: true, force: false, settings, llm, evolveMemory }, ctx)
      await this.deps.afterReflect(summary)
      // the run proposed into memory (its problems are among the summary's warnings already): the job log says so
      if (summary.memory) {
        ctx.progress({ fraction: 1, stage: 'log', ...codedLine('memory.auto_proposed', { n: summary.memory.proposed.length }) })
        for (const problem of summary.memory.problems) ctx.progress({ fraction: 1, stage: 'log', ...problem })
      }
      return summary
    })
    this.startedJobs.push(info)
    await this.deps.jobs.wait(info.jobId)
  }

  private remember(taskPath: string): void {
    this.processed.add(taskPath)
    this.state.processed.push(taskPath)
    if (this.state.processed.length > MAX_REMEMBERED) {
      const drop = this.state.processed.splice(0, this.state.processed.length - MAX_REMEMBERED)
      for (const p of drop) this.processed.delete(p)
    }
  }

  private save(): Promise<void> {
    const text = JSON.stringify({ version: 1, ...this.state }, null, 1) + '\n'
    this.saving = this.saving.then(() => writeFileAtomic(this.file, text, { mode: 0o600, folderMode: 0o700 })).catch(() => undefined)
    return this.saving
  }
}
