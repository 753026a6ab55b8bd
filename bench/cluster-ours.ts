/**
 * Our side of the clustering bench, run as its own process so its peak memory is its own:
 * TF-IDF index → all pairs with cosine ≥ 1 − eps → DBSCAN. Usage: cluster-ours.ts CORPUS.jsonl LABELS.out
 * Prints one JSON line with timings (s), counts and peak RSS (MB).
 */
import fs from 'node:fs'
import { dbscan, graphFromPairs } from '../src/main/cluster/dbscan'
import { allPairs } from '../src/main/text/all-pairs'
import { buildTfIdfIndex } from '../src/main/text/tfidf'

const EPS = 0.5
const MIN_SAMPLES = 2

function main(): void {
  const [corpusPath, labelsPath] = process.argv.slice(2)
  const docs = fs.readFileSync(corpusPath!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string)
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const index = buildTfIdfIndex(docs)
  const t1 = performance.now()
  const pairs = allPairs(index, 1 - EPS)
  const t2 = performance.now()
  const graph = graphFromPairs(docs.length, pairs.a, pairs.b, pairs.count, (k) => 1 - (pairs.score[k] as number) <= EPS)
  const labels = dbscan(graph, MIN_SAMPLES)
  const t3 = performance.now()
  const cpu = process.cpuUsage(c0)
  fs.writeFileSync(labelsPath!, Array.from(labels).join('\n') + '\n')
  const clusters = new Set(Array.from(labels).filter((l) => l >= 0)).size
  process.stdout.write(
    JSON.stringify({
      index_s: (t1 - t0) / 1000,
      pairs_s: (t2 - t1) / 1000,
      dbscan_s: (t3 - t2) / 1000,
      total_s: (t3 - t0) / 1000,
      cpu_s: (cpu.user + cpu.system) / 1e6,
      vocab: index.vocab.length,
      pairs: pairs.count,
      clusters,
      noise: Array.from(labels).filter((l) => l < 0).length,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024
    }) + '\n'
  )
}

main()
