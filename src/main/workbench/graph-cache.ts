/**
 * The overview's similarity graphs kept in the cache folder (never in the library), one file per key: the app or a
 * `skillbench serve` started again on an unchanged library draws its map from the file instead of joining every
 * pair again (~0.6–1 s of the server's thread for 1,000 skills, while the first screen waits for its answers).
 * A file that is not a graph of the expected skills is ignored and computed again; files are written whole
 * (cache-files.ts), so processes sharing the folder read an old graph or a new one, never a mix.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { OverviewResult } from '../../shared/api'
import { readCacheFile, writeCacheFile } from '../cache-files'

type Graph = OverviewResult['graph']

/** Graph files kept; the least recently written beyond these are removed when one is saved. */
export const KEPT_GRAPH_FILES = 16

const FILE_NAME = /^[0-9a-f]{64}\.json$/

/** The file of the graph with this key (a sha256 hex digest) in `cacheDir`. */
export function graphCacheFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, 'graphs', `${key}.json`)
}

/** The graph saved in `file`, when it is one whose nodes are among `ids` and edges join its nodes; else null. */
export async function loadCachedGraph(file: string, ids: ReadonlySet<string>): Promise<Graph | null> {
  const bytes = await readCacheFile(file)
  if (!bytes) return null
  try {
    const graph = JSON.parse(bytes.toString('utf8')) as unknown
    return isGraphOf(graph, ids) ? graph : null
  } catch {
    return null
  }
}

function isGraphOf(value: unknown, ids: ReadonlySet<string>): value is Graph {
  if (typeof value !== 'object' || value === null) return false
  const { nodes, edges } = value as { nodes?: unknown; edges?: unknown }
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return false
  const shown = new Set<string>()
  for (const n of nodes as unknown[]) {
    if (typeof n !== 'object' || n === null) return false
    const { id, title, quality, cluster } = n as Record<string, unknown>
    if (typeof id !== 'string' || !ids.has(id) || typeof title !== 'string' || typeof quality !== 'number' || !Number.isInteger(cluster)) return false
    shown.add(id)
  }
  for (const e of edges as unknown[]) {
    if (typeof e !== 'object' || e === null) return false
    const { source, target, similarity } = e as Record<string, unknown>
    if (typeof source !== 'string' || typeof target !== 'string' || !shown.has(source) || !shown.has(target) || typeof similarity !== 'number') return false
  }
  return true
}

/** Saves `graph` as `file`, then removes the oldest graph files beyond KEPT_GRAPH_FILES (derived data only). */
export async function saveCachedGraph(file: string, graph: Graph): Promise<void> {
  await writeCacheFile(file, JSON.stringify(graph))
  const dir = path.dirname(file)
  const files: Array<{ name: string; mtime: number }> = []
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    if (!FILE_NAME.test(name)) continue
    const st = await fs.promises.lstat(path.join(dir, name)).catch(() => null)
    if (st?.isFile()) files.push({ name, mtime: st.mtimeMs })
  }
  files.sort((a, b) => b.mtime - a.mtime)
  for (const old of files.slice(KEPT_GRAPH_FILES)) {
    if (old.name !== path.basename(file)) await fs.promises.rm(path.join(dir, old.name), { force: true })
  }
}
