import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { collectGarbage } from '../../src/main/curate/collect-garbage'

describe('collectGarbage', () => {
  it('frees a buffer nothing refers to any more, and gives no later context a gc', async () => {
    // Made in a function of its own, so that no variable of this one holds the buffer.
    const made = (): WeakRef<Uint8Array> => new WeakRef(new Uint8Array(8 << 20))
    const ref = made()
    // A WeakRef's target is kept until the job that made it (or read it) ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ref.deref()?.length).toBe(8 << 20)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(collectGarbage()).toBe(true)
    expect(ref.deref() === undefined).toBe(true)
    // A second call reuses the collector it found.
    expect(collectGarbage()).toBe(true)
    expect(vm.runInNewContext('typeof gc')).toBe('undefined')
  })
})
