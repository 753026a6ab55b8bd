import fs from 'node:fs'
import path from 'node:path'
import { redact } from '../llm/redact'

/** `2026-01-17 09:59:21,686`: Python logging's `%(asctime)s`, local time, as upstream's log files have it. */
export function formatAsctime(d: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())},${p(d.getMilliseconds(), 3)}`
}

/** `task_reflection_YYYYMMDD.log` for a date (local). */
export function reflectionLogName(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0')
  return `task_reflection_${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}.log`
}

/** Appends `%(asctime)s - %(levelname)s - %(message)s` lines to `<experience>/logs/task_reflection_YYYYMMDD.log`. */
export class ReflectionLog {
  private queue: Promise<void> = Promise.resolve()

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
  flush(): Promise<void> {
    return this.queue
  }

  private write(level: 'INFO' | 'ERROR', message: string): Promise<void> {
    const at = this.now()
    // one record per line: a multi-line message (a stack, a model answer) must not forge extra records
    const text = redact(message, this.secrets).replace(/\r?\n/g, ' ⏎ ')
    const line = `${formatAsctime(at)} - ${level} - ${text}\n`
    const file = path.join(this.experienceDir, 'logs', reflectionLogName(at))
    this.queue = this.queue.then(async () => {
      try {
        await fs.promises.mkdir(path.dirname(file), { recursive: true })
        await fs.promises.appendFile(file, line, 'utf8')
      } catch {
        // a log that cannot be written must not fail the reflection itself
      }
    })
    return this.queue
  }
}
