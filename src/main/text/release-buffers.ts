/**
 * Gives typed arrays' memory back now, instead of when a garbage collection finds them dead. V8 starts a collection
 * by its heap's growth, not by the memory dead ArrayBuffers hold outside it: at 20,000 skills the text scan's arrays
 * (~60 MB) stayed through the similarity join and the plan, the command's peak (docs/BENCH.md). Each buffer is moved
 * into a message on a channel closed at once: the message is dropped, and the memory with it, as the channel's
 * handles close (within a turn of the event loop). The arrays, and every other view of those buffers, are empty
 * from then on.
 */

/**
 * Releases the buffers of `arrays` that each array spans whole (a view into a larger buffer, such as a pooled
 * Buffer's, is left as it is, and so is shared memory). Returns the bytes released.
 */
export function releaseBuffers(arrays: ReadonlyArray<ArrayBufferView | undefined>): number {
  const buffers = new Set<ArrayBuffer>()
  for (const a of arrays) {
    if (!a || !(a.buffer instanceof ArrayBuffer) || a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength || a.byteLength === 0) continue
    buffers.add(a.buffer)
  }
  if (buffers.size === 0) return 0
  let bytes = 0
  for (const b of buffers) bytes += b.byteLength
  const { port1, port2 } = new MessageChannel()
  port1.postMessage(null, [...buffers])
  port1.close()
  port2.close()
  return bytes
}
