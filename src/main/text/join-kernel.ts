/**
 * The join kernel compiled from WebAssembly (join-kernel.wat): the same work as all-pairs.ts's joinRows, in about
 * half the time, for joins whose arrays lie in a JoinArena (join-arena.ts). Compiled once per process, on first use.
 */
import { JOIN_KERNEL_WASM } from './join-kernel-wasm'

let compiled: WebAssembly.Module | null | undefined

/** The compiled kernel, or undefined where this host cannot compile it (the JavaScript kernel is used instead). */
export function joinKernelModule(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(JOIN_KERNEL_WASM, 'base64'))
    } catch {
      compiled = null
    }
  }
  return compiled ?? undefined
}

/** The kernel's array arguments, in the order its `setup` takes them (byte offsets into the arena's memory). */
export const KERNEL_ARRAYS = ['rowPtr', 'split', 'colIdx', 'values', 'rarePos', 'postPtr', 'postDoc', 'postVal', 'freqNorm'] as const
