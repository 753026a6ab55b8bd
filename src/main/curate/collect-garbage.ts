/**
 * A full garbage collection on request. V8 frees an ArrayBuffer's memory only when a collection finds it dead, and
 * it starts one by the JavaScript heap's growth, not by how much memory dead buffers hold outside it. A large
 * curation's text scan leaves ~60 MB of them (and its heap garbage) once the similarity index is built; without a
 * collection they stay through the join and the plan, the command's peak (docs/BENCH.md).
 *
 * The collector is reached as Jest's leak detector reaches it: `--expose-gc` set for contexts made from now on, one
 * context made to read its `gc`, and the flag unset again so that no later context gets one.
 */
import v8 from 'node:v8'
import vm from 'node:vm'

let collector: (() => void) | null | undefined

/** Collects garbage now (a full, blocking collection); false where the collector cannot be reached. */
export function collectGarbage(): boolean {
  if (collector === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc')
      collector = vm.runInNewContext('gc') as () => void
    } catch {
      collector = null
    } finally {
      v8.setFlagsFromString('--no-expose-gc')
    }
    if (typeof collector !== 'function') collector = null
  }
  collector?.()
  return collector !== null
}
