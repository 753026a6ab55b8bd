/**
 * A map from non-negative integers below 2^30 to integers (-1 and up), in two typed arrays with open addressing:
 * the Chinese pair lookups of an index build (text/tokenize.ts TermDictionary), several per character of every
 * Chinese text, cost a fraction of a Map's. Pure.
 */

/** Slots start at this many and double when half are taken. */
const INITIAL_SLOTS = 1024

export class IntMap {
  /** key + 1 per slot (0: empty). */
  private keys = new Int32Array(INITIAL_SLOTS)
  private values = new Int32Array(INITIAL_SLOTS)
  private mask = INITIAL_SLOTS - 1
  private count = 0

  get size(): number {
    return this.count
  }

  /** The value of `key`, or undefined. */
  get(key: number): number | undefined {
    const stored = key + 1
    for (let slot = this.slotOf(key); ; slot = (slot + 1) & this.mask) {
      const k = this.keys[slot] as number
      if (k === stored) return this.values[slot]
      if (k === 0) return undefined
    }
  }

  /** Sets the value of `key` (0 ≤ key < 2^30; value ≥ -1). */
  set(key: number, value: number): void {
    if (!(key >= 0 && key < 2 ** 30 && Number.isInteger(key))) throw new RangeError(`IntMap key out of range: ${key}`)
    const stored = key + 1
    let slot = this.slotOf(key)
    for (;;) {
      const k = this.keys[slot] as number
      if (k === stored) {
        this.values[slot] = value
        return
      }
      if (k === 0) break
      slot = (slot + 1) & this.mask
    }
    this.keys[slot] = stored
    this.values[slot] = value
    if (++this.count * 2 > this.keys.length) this.grow()
  }

  private slotOf(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 7) & this.mask
  }

  private grow(): void {
    const keys = this.keys
    const values = this.values
    this.keys = new Int32Array(keys.length * 2)
    this.values = new Int32Array(keys.length * 2)
    this.mask = this.keys.length - 1
    for (let s = 0; s < keys.length; s++) {
      const k = keys[s] as number
      if (k === 0) continue
      let slot = this.slotOf(k - 1)
      while (this.keys[slot] !== 0) slot = (slot + 1) & this.mask
      this.keys[slot] = k
      this.values[slot] = values[s] as number
    }
  }
}
