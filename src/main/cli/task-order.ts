/**
 * Progress lines of tasks that run a few at once, printed in task order (pure). A task that needs no work (no skill
 * worth making, already reflected) finishes at once, while the tasks before it are still being read: printed as
 * they came, `reflect` said "[4/5] Skipping …" before "[1/5] Processing …". The task at the head of the run prints
 * live; a later task's lines wait until every task before it has ended, then follow in order.
 */
export class TaskOrder {
  /** The first task (1-based) not yet ended: its lines print at once. */
  private next = 1
  private readonly held = new Map<number, string[]>()
  private readonly ended = new Set<number>()

  /** A line of task `index` (`ends`: its last line). Returns the lines to print now, in task order. */
  push(index: number, line: string, ends: boolean): string[] {
    if (index < this.next) return [line] // not expected: a task said something after its end
    const lines = this.held.get(index) ?? []
    lines.push(line)
    this.held.set(index, lines)
    if (ends) this.ended.add(index)
    const out: string[] = []
    while (this.held.has(this.next) || this.ended.has(this.next)) {
      out.push(...(this.held.get(this.next) ?? []))
      this.held.delete(this.next)
      if (!this.ended.delete(this.next)) break
      this.next++
    }
    return out
  }

  /** What is still held when the run is over (a task cancelled before its end), in task order. */
  rest(): string[] {
    const out = [...this.held.keys()].sort((a, b) => a - b).flatMap((i) => this.held.get(i)!)
    this.held.clear()
    this.ended.clear()
    return out
  }
}
