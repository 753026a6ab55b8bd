/**
 * A process drawing a library's overview graph as the app's core does (cached in SKILLBENCH_CACHE_DIR): prints the
 * graph and how many times it had to compute one. argv: library folder.
 */
import { openLibrary } from '../../src/main/store/library'
import { cachedGraph, computeSimilarityGraph } from '../../src/main/workbench/core-modules'
import { defaultCacheDir } from '../../src/main/cache-dir'

const THRESHOLDS = { merge: 0.7, eps: 0.5, minSamples: 2, cleanupDays: 30 }

async function main(): Promise<void> {
  const lib = await openLibrary(process.argv[2]!)
  const skills = (await lib.list()).skills.filter((s) => !s.legacy)
  let computed = 0
  const graph = cachedGraph((s, t) => (computed++, computeSimilarityGraph(s, t)), 8, () => defaultCacheDir())
  const drawn = await graph(skills, THRESHOLDS)
  process.stdout.write(JSON.stringify({ computed, graph: drawn }))
}

void main()
