import fs from 'node:fs'
import { redact } from '../llm/redact'
import { appendContained } from '../store/contained'
import { formatAsctime, logDay } from '../store/log-lines'

/** `task_reflection_YYYYMMDD.log` for a date (local). */
export function reflectionLogName(d: Date): string {
  return `task_reflection_${logDay(d)}.log`
}

/** Appends `%(asctime)s - %(levelname)s - %(message)s` lines to `<experience>/logs/task_reflection_YYYYMMDD.log`. */
export class ReflectionLog {
  private pending: { file: string; line: string }[] = []
  private flushing: Promise<void> | undefined
  private root: string | undefined
  /** Why the log could not be written (a link leading out, a read-only folder), for the caller to show. */
  problem: string | undefined

  constructor(
    private readonly experienceDir: string,
    private readonly secrets: readonly (string | undefined)[] = [],
    private readonly now: () => Date = () => new Date()
  ) {}

  info(message: string): Promise<void> {
    return this.write('INFO', message)
  }

  error(message: string): Promise<void> {
    return this.write('ERROR', message)
  }

  /** Resolves when every line so far is on disk. */
  async flush(): Promise<void> {
    while (this.flushing || this.pending.length) {
      await (this.flushing ?? this.drain())
    }
  }

  private write(level: 'INFO' | 'ERROR', message: string): Promise<void> {
    const at = this.now()
    // one record per line: a multi-line message (a stack, a model answer) must not forge extra records
    const text = redact(message, this.secrets).replace(/\r?\n/g, ' ⏎ ')
    this.pending.push({ file: `logs/${reflectionLogName(at)}`, line: `${formatAsctime(at)} - ${level} - ${text}\n` })
    return this.flushing ?? this.drain()
  }

  /** Lines written while a batch is on its way go out together in the next append. */
  private drain(): Promise<void> {
    this.flushing = (async () => {
      while (this.pending.length) {
        const batch = this.pending
        this.pending = []
        const byFile = new Map<string, string>()
        for (const { file, line } of batch) byFile.set(file, (byFile.get(file) ?? '') + line)
        for (const [file, text] of byFile) {
          try {
            this.root ??= await fs.promises.realpath(this.experienceDir)
            // logs/ and the day's file must be real inside the library: a link out is refused, never appended through
            await appendContained(this.root, file, text)
          } catch (err) {
            // a log that cannot be written must not fail the reflection itself; it is reported instead
            this.problem = `the reflection log ${file} could not be written: ${(err as Error).message}`
          }
        }
      }
    })().finally(() => {
      this.flushing = undefined
    })
    return this.flushing
  }
}
