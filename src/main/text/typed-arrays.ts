/** Growing typed arrays. Pure. (word-scan.ts keeps its own copy: its functions must stay self-contained.) */

/** A new array of `a`'s type and of `size` items, holding a's first `used` items. */
export function resized<T extends Int32Array | Uint32Array>(a: T, size: number, used = a.length): T {
  const next = new (a.constructor as new (n: number) => T)(size)
  next.set(a.subarray(0, used))
  return next
}
