/**
 * One shared WebAssembly memory holding the arrays the similarity join reads, so that its WebAssembly kernel
 * (join-kernel.ts) can read them where they lie: the index builds its rows and postings here, the join adds its own
 * arrays, and worker threads share it all without a copy. Arrays are handed out front to back and never given back
 * (a linear memory cannot shrink): the whole arena goes when nothing refers to it any more.
 */

const PAGE = 65536
/** At most 2 GB: a corpus needing more builds its arrays as before (plain shared memory, the JavaScript kernel). */
const MAX_PAGES = 32768

/** Uint32Array or Float64Array, as a constructor over shared memory. */
export interface SharedArrayType<T> {
  new (buffer: SharedArrayBuffer, byteOffset: number, length: number): T
  readonly BYTES_PER_ELEMENT: number
}

/** Which arena each array handed out belongs to (arrays the index and the join pass around lose their origin). */
const owners = new WeakMap<ArrayBufferView, JoinArena>()

export class JoinArena {
  private end = 0

  private constructor(readonly memory: WebAssembly.Memory) {}

  /** A new arena of at most `maxBytes`, or undefined where this host has no shared WebAssembly memory. */
  static create(maxBytes = MAX_PAGES * PAGE): JoinArena | undefined {
    try {
      return new JoinArena(new WebAssembly.Memory({ initial: 1, maximum: Math.max(1, Math.min(MAX_PAGES, Math.floor(maxBytes / PAGE))), shared: true }))
    } catch {
      return undefined
    }
  }

  /**
   * A zeroed array of `length` elements in this arena (8-byte aligned), growing the memory as needed; undefined
   * when the memory cannot grow that far (the caller allocates elsewhere).
   */
  alloc<T extends Uint32Array | Float64Array>(make: SharedArrayType<T>, length: number): T | undefined {
    const start = Math.ceil(this.end / 8) * 8
    const end = start + Math.max(1, length) * make.BYTES_PER_ELEMENT
    const have = this.memory.buffer.byteLength
    if (end > have) {
      try {
        this.memory.grow(Math.ceil((end - have) / PAGE))
      } catch {
        return undefined
      }
    }
    this.end = end
    // A shared memory's buffer is a SharedArrayBuffer (typed as ArrayBuffer by the DOM library).
    const view = new make(this.memory.buffer as unknown as SharedArrayBuffer, start, length)
    owners.set(view, this)
    return view
  }
}

/** The arena an array was handed out by, if any. */
export function arenaOf(view: ArrayBufferView): JoinArena | undefined {
  return owners.get(view)
}

/** A zeroed shared array: in `arena` when it has room, else in a SharedArrayBuffer of its own. */
export function sharedArray<T extends Uint32Array | Float64Array>(make: SharedArrayType<T>, length: number, arena?: JoinArena): T {
  return arena?.alloc(make, length) ?? new make(new SharedArrayBuffer(length * make.BYTES_PER_ELEMENT), 0, length)
}
