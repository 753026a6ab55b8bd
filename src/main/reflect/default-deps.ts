import { scanRoot } from '../scan'
import { openLibrary } from '../store/library'
import type { ReflectionDeps } from './run-reflection'

/** The production wiring: the real scanner and store; callers add the model client and the file backup. */
export function defaultReflectionDeps(extra: Partial<ReflectionDeps> = {}): ReflectionDeps {
  return {
    scan: (o) => scanRoot({ rootDir: o.rootDir, signal: o.signal }),
    openStore: (dir) => openLibrary(dir),
    ...extra
  }
}
