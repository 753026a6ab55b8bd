/**
 * Progress lines of tasks that run a few at once, printed in task order (pure). A task that needs no work (no skill
 * worth making, already reflected) finishes at once, while the tasks before it are still being read: printed as
 * they came, `reflect` said "[4/5] Skipping …" before "[1/5] Processing …". The task at the head of the run prints
 * live; a later task's lines wait until every task before it has ended, then follow in order.
 *
 * While lines are held behind a slow head task (a slow model answer), the run looked stuck: `waiting(now)` says what
 * they wait for, and `note(now)` says it at a steady pace (`paceMs` after the last line printed or the last note).
 * Time is the caller's (`now`, in ms): nothing here reads a clock.
 */

/** How long held lines may go unsaid before a note says what they wait for, and the pace of the notes after it. */
export const WAIT_NOTE_MS = 5_000

/** What the held lines wait for. */
export interface TaskWait {
  /** The task waited on (1-based): the first one not ended. */
  index: number
  /** Its name, once it said anything (a task's first event names it). */
  task?: string
  /** Whole seconds since the task waited on was first heard from (never heard: since lines were first held). */
  seconds: number
  /** Later tasks whose lines are held, and how many of them have ended. */
  later: number
  finished: number
  /** How long (ms) lines have been held without a break. */
  heldMs: number
}

export class TaskOrder {
  /** The first task (1-based) not yet ended: its lines print at once. */
  private next = 1
  private readonly held = new Map<number, string[]>()
  private readonly ended = new Set<number>()
  /** When each task not yet printed in full was first heard from, and its name. */
  private readonly heardOf = new Map<number, { task: string; at: number }>()
  /** When a line was last printed or a note given, and when the lines now held began to be held. */
  private lastNews = 0
  private heldSince = 0

  constructor(private readonly paceMs = WAIT_NOTE_MS) {}

  /** Task `index`, named `task`, said something at `now` (any event, printed or not). */
  heard(index: number, task: string, now: number): void {
    if (index >= this.next && !this.heardOf.has(index)) this.heardOf.set(index, { task, at: now })
  }

  /** A line of task `index` (`ends`: its last line) at `now`. Returns the lines to print now, in task order. */
  push(index: number, line: string, ends: boolean, now = 0): string[] {
    if (index < this.next) return [line] // not expected: a task said something after its end
    const wasHolding = this.held.size > 0
    const lines = this.held.get(index) ?? []
    lines.push(line)
    this.held.set(index, lines)
    if (ends) this.ended.add(index)
    const out: string[] = []
    while (this.held.has(this.next) || this.ended.has(this.next)) {
      out.push(...(this.held.get(this.next) ?? []))
      this.held.delete(this.next)
      if (!this.ended.delete(this.next)) break
      this.heardOf.delete(this.next)
      this.next++
    }
    if (out.length > 0) this.lastNews = now
    if (!wasHolding && this.held.size > 0) this.heldSince = now
    return out
  }

  /** What the held lines wait for at `now`; undefined while nothing is held. */
  waiting(now: number): TaskWait | undefined {
    if (this.held.size === 0) return undefined
    const head = this.heardOf.get(this.next)
    const since = head?.at ?? this.heldSince
    return {
      index: this.next,
      ...(head ? { task: head.task } : {}),
      seconds: Math.max(0, Math.floor((now - since) / 1000)),
      later: this.held.size,
      finished: this.ended.size,
      heldMs: Math.max(0, now - this.heldSince)
    }
  }

  /** `waiting(now)` when a note is due (lines held, `paceMs` gone since the last line or note, or since the hold began). */
  note(now: number): TaskWait | undefined {
    const wait = this.waiting(now)
    if (!wait || now - Math.max(this.lastNews, this.heldSince) < this.paceMs) return undefined
    this.lastNews = now
    return wait
  }

  /** What is still held when the run is over (a task cancelled before its end), in task order. */
  rest(): string[] {
    const out = [...this.held.keys()].sort((a, b) => a - b).flatMap((i) => this.held.get(i)!)
    this.held.clear()
    this.ended.clear()
    this.heardOf.clear()
    return out
  }
}
