import { describe, expect, it } from 'vitest'
import { releaseBuffers } from '../../src/main/text/release-buffers'

const MB = 1 << 20

describe('releaseBuffers', () => {
  it('gives back the memory of arrays that span their whole buffer, at once', async () => {
    const before = process.memoryUsage().arrayBuffers
    const a = new Uint32Array(16 * MB).fill(7)
    const b = new Float64Array(4 * MB).fill(1)
    // a second view of a's buffer: the buffer is released once
    const alias = new Uint8Array(a.buffer)
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThan(88 * MB)
    expect(releaseBuffers([a, undefined, b, alias])).toBe(96 * MB)
    expect([a.length, b.length, alias.length]).toEqual([0, 0, 0])
    // freed as the channel closes (no garbage collection involved: `a` and `b` are still referenced here)
    await expect.poll(() => process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * MB)
    expect(a.byteLength + b.byteLength).toBe(0)
  })

  it('leaves views into larger buffers, pooled Buffers and shared memory as they are', () => {
    const whole = new Uint32Array(1024).fill(3)
    const part = whole.subarray(10, 20)
    const pooled = Buffer.from('a small string from the pool')
    const shared = new Uint32Array(new SharedArrayBuffer(4096))
    shared[0] = 9
    expect(releaseBuffers([part, pooled, shared, new Uint8Array(0)])).toBe(0)
    expect(whole.length).toBe(1024)
    expect(part[0]).toBe(3)
    expect(pooled.toString()).toBe('a small string from the pool')
    expect(shared[0]).toBe(9)
  })
})
