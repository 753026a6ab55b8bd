import fs from 'node:fs'
import path from 'node:path'

/**
 * The start and the end of a task's `logs/manager.out`, at most `maxBytes` in all, without reading the
 * whole file (logs can be gigabytes). Undefined when there is no such log.
 */
export async function readLogExcerpt(taskPath: string, maxBytes: number): Promise<string | undefined> {
  const file = path.join(taskPath, 'logs', 'manager.out')
  let handle: fs.promises.FileHandle | undefined
  try {
    handle = await fs.promises.open(file, 'r')
    const { size } = await handle.stat()
    if (size <= maxBytes) {
      const buf = Buffer.alloc(size)
      await handle.read(buf, 0, size, 0)
      return clean(buf.toString('utf8'))
    }
    const headLen = Math.floor(maxBytes * 0.4)
    const tailLen = maxBytes - headLen
    const head = Buffer.alloc(headLen)
    const tail = Buffer.alloc(tailLen)
    await handle.read(head, 0, headLen, 0)
    await handle.read(tail, 0, tailLen, size - tailLen)
    return `${clean(head.toString('utf8'))}\n… [${size - maxBytes} bytes of the log cut here] …\n${clean(tail.toString('utf8'))}`
  } catch {
    return undefined
  } finally {
    await handle?.close()
  }
}

/** NUL bytes and a cut UTF-8 sequence at the edges become nothing / U+FFFD; both are harmless in a prompt. */
function clean(text: string): string {
  return text.split('\u0000').join('')
}
