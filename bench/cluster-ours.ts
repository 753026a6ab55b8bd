/**
 * Our side of the clustering bench, run as its own process so its peak memory is its own:
 * TF-IDF index from the raw texts → all pairs with cosine ≥ 1 − eps → DBSCAN — the same stages as the
 * scikit-learn column (fit_transform from raw text + cosine_similarity + DBSCAN); reading the corpus file
 * is outside the timing on both sides. The index and the pairs are built as the app does
 * (`buildTfIdfIndexAsync`, `allPairsAsync`: worker threads on large corpora; `CLUSTER_BENCH_WORKERS=0` forces one thread).
 * Usage: cluster-ours.ts CORPUS.jsonl|LIBRARY_DIR LABELS.out — prints one JSON line with timings (s), CPU time
 * (s, all threads), counts and peak RSS (MB). Given a library folder (bench/cluster-library.ts), it lists it with
 * the store inside the timing and indexes each skill's title, usage conditions and body, as
 * cluster_sklearn.py reads them (labels as "skill_id label" lines in file-name order, like its).
 */
import fs from 'node:fs'
import { dbscan, graphFromPairs } from '../src/main/cluster/dbscan'
import { openLibrary } from '../src/main/store/library'
import { allPairsAsync } from '../src/main/text/all-pairs'
import { buildTfIdfIndexAsync } from '../src/main/text/tfidf'

const EPS = 0.5
const MIN_SAMPLES = 2

/** CPU time of the whole process (all threads, workers included), in seconds. */
const cpuNow = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

/** A library's skills as index documents, and their ids, in file-name order. */
async function libraryDocs(dir: string): Promise<{ ids: string[]; docs: string[][] }> {
  const skills = (await (await openLibrary(dir)).list()).skills.filter((s) => s.format === 'agiagent')
  const name = (p: string): string => p.slice(p.lastIndexOf('/') + 1)
  skills.sort((a, b) => (name(a.path) < name(b.path) ? -1 : name(a.path) > name(b.path) ? 1 : 0))
  return { ids: skills.map((s) => s.skill_id), docs: skills.map((s) => [s.title, s.usage_conditions, s.body.trim()]) }
}

async function main(): Promise<void> {
  const [corpusPath, labelsPath] = process.argv.slice(2)
  const library = fs.statSync(corpusPath!).isDirectory()
  const workers = process.env.CLUSTER_BENCH_WORKERS === undefined ? undefined : Number(process.env.CLUSTER_BENCH_WORKERS)
  const tRead = performance.now()
  const cRead = cpuNow()
  const lib = library ? await libraryDocs(corpusPath!) : null
  const docs = lib ? lib.docs : fs.readFileSync(corpusPath!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string)
  const c0 = library ? cRead : cpuNow()
  const t0 = performance.now()
  const index = await buildTfIdfIndexAsync(docs, { workers })
  const t1 = performance.now()
  const c1 = cpuNow()
  const pairs = await allPairsAsync(index, 1 - EPS, { workers })
  const t2 = performance.now()
  const c2 = cpuNow()
  const graph = graphFromPairs(docs.length, pairs.a, pairs.b, pairs.count, (k) => 1 - (pairs.score[k] as number) <= EPS)
  const labels = dbscan(graph, MIN_SAMPLES)
  const t3 = performance.now()
  const c3 = cpuNow()
  // Libraries: "skill_id label" lines, as cluster_sklearn.py writes them for a library.
  fs.writeFileSync(labelsPath!, Array.from(labels, (l, i) => (lib ? `${lib.ids[i]} ${l}` : String(l))).join('\n') + '\n')
  const clusters = new Set(Array.from(labels).filter((l) => l >= 0)).size
  process.stdout.write(
    JSON.stringify({
      read_s: library ? (t0 - tRead) / 1000 : 0,
      index_s: (t1 - t0) / 1000,
      pairs_s: (t2 - t1) / 1000,
      dbscan_s: (t3 - t2) / 1000,
      total_s: (t3 - (library ? tRead : t0)) / 1000,
      index_cpu_s: c1 - c0,
      pairs_cpu_s: c2 - c1,
      dbscan_cpu_s: c3 - c2,
      cpu_s: c3 - c0,
      vocab: index.vocab.length,
      pairs: pairs.count,
      clusters,
      noise: Array.from(labels).filter((l) => l < 0).length,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024
    }) + '\n'
  )
}

void main()
