/**
 * A child process for the lock tests. Modes (argv[2]):
 * - `count ROOT N`: N times, under the library lock: check nobody else is inside (an exclusive marker file),
 *   read a counter file, yield, write counter + 1 with a plain (non-atomic) write, leave. Prints "ok" at the end
 *   or "VIOLATION" when it found someone else inside.
 * - `hold ROOT MS`: takes the lock, prints "held", holds it MS milliseconds, releases, prints "released".
 * - `die ROOT`: takes the lock, prints "held" and kills itself with SIGKILL while holding it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { withLibraryLock } from '../../src/main/store/lock'

const [mode, root, arg] = process.argv.slice(2) as [string, string, string]

async function count(n: number): Promise<void> {
  const counter = path.join(root, 'counter')
  const inside = path.join(root, 'inside')
  let violations = 0
  for (let i = 0; i < n; i++) {
    await withLibraryLock(root, async () => {
      try {
        fs.writeFileSync(inside, String(process.pid), { flag: 'wx' })
      } catch {
        violations++
        return
      }
      const value = Number(fs.readFileSync(counter, 'utf8') || '0')
      await new Promise((r) => setImmediate(r))
      fs.writeFileSync(counter, String(value + 1))
      fs.unlinkSync(inside)
    }, { timeoutMs: 30_000 })
  }
  process.stdout.write(violations ? `VIOLATION ${violations}\n` : 'ok\n')
}

async function main(): Promise<void> {
  if (mode === 'count') return count(Number(arg))
  if (mode === 'hold') {
    await withLibraryLock(root, async () => {
      process.stdout.write('held\n')
      await new Promise((r) => setTimeout(r, Number(arg)))
    }, { purpose: 'test holder' })
    process.stdout.write('released\n')
    return
  }
  if (mode === 'die') {
    await withLibraryLock(root, async () => {
      process.stdout.write('held\n', () => process.kill(process.pid, 'SIGKILL'))
      await new Promise(() => undefined)
    })
  }
}

void main()
