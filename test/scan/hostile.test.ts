import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScanCache } from '../../src/main/scan/cache'
import { scanRoot } from '../../src/main/scan/scan-root'

/**
 * Huge logs are streamed with bounded memory. Memory is asserted (not time): heap + external growth
 * while parsing must stay far below the file size.
 */
let root: string
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-hostile-'))
})
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

function memoryNow(): number {
  const m = process.memoryUsage()
  return m.heapUsed + m.external + m.arrayBuffers
}

/** Peak growth of heap + buffers while `fn` runs (sampled on every tick of the event loop). */
async function peakGrowth(fn: () => Promise<unknown>): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const start = memoryNow()
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryNow())
  }, 5)
  try {
    await fn()
  } finally {
    clearInterval(timer)
  }
  peak = Math.max(peak, memoryNow())
  return peak - start
}

describe('hostile logs', () => {
  it('a 100 MB single line is parsed with bounded memory and its markers are found', async () => {
    const dir = path.join(root, 'u', 'output_hugeline', 'logs')
    fs.mkdirSync(dir, { recursive: true })
    const fd = fs.openSync(path.join(dir, 'manager.out'), 'w')
    fs.writeSync(fd, 'Received user requirement: ')
    const block = Buffer.alloc(1024 * 1024, 'z')
    for (let i = 0; i < 100; i++) {
      fs.writeSync(fd, block)
      if (i === 50) {
        fs.writeSync(fd, '❌ execution error in the middle ')
      }
    }
    fs.writeSync(fd, ' <invoke name="edit_file"><parameter name="target_file">a.py</parameter></invoke> TASK_COMPLETED: done')
    fs.closeSync(fd)
    let result: Awaited<ReturnType<typeof scanRoot>> | undefined
    const growth = await peakGrowth(async () => {
      result = await scanRoot({ rootDir: root, cache: new ScanCache() })
    })
    const task = result!.tasks.find((t) => t.taskDir === 'output_hugeline')!
    expect(task.requirements).toHaveLength(1)
    expect(task.requirements[0]!.length).toBeLessThanOrEqual(4096)
    expect(task.errors).toHaveLength(1)
    expect(task.toolCalls.map((c) => c.name)).toEqual(['edit_file'])
    expect(task.completed).toBe(true)
    expect(growth).toBeLessThan(16 * 1024 * 1024) // a 100 MB file, far less memory
  }, 60_000)

  it('a large sparse file (mostly NUL bytes) with markers at both ends', async () => {
    const dir = path.join(root, 'u', 'output_sparse', 'logs')
    fs.mkdirSync(dir, { recursive: true })
    const file = path.join(dir, 'manager.out')
    fs.writeFileSync(file, 'Received user requirement: sparse\n')
    fs.truncateSync(file, 200 * 1024 * 1024)
    fs.appendFileSync(file, '\nReceived user requirement: second\nTASK_COMPLETED: ok\n')
    let result: Awaited<ReturnType<typeof scanRoot>> | undefined
    const growth = await peakGrowth(async () => {
      result = await scanRoot({ rootDir: root, cache: new ScanCache() })
    })
    const task = result!.tasks.find((t) => t.taskDir === 'output_sparse')!
    expect(task.requirements).toEqual(['sparse', 'second'])
    expect(task.interruptions).toBe(1)
    expect(task.completed).toBe(true)
    expect(growth).toBeLessThan(16 * 1024 * 1024)
  }, 60_000)
})
