/**
 * The overview's graph kept in the cache folder: real processes drawing the map of library folders (generated ones,
 * and the real public skills read in place). A new process finds the graph an earlier one computed; a changed
 * skill, a damaged or foreign file computes it again; two processes at once leave one whole file; old files beyond
 * the kept number go.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleChild } from '../helpers/bundle-child'
import { makeLibrary } from '../search/library-fixture'
import { tempDir } from './helpers'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { graphCacheFile, KEPT_GRAPH_FILES, saveCachedGraph } from '../../src/main/workbench/graph-cache'

interface Drawn {
  computed: number
  graph: { nodes: Array<{ id: string }>; edges: unknown[] }
}

let work: string
let child: string

beforeAll(async () => {
  work = tempDir('graph-cache')
  child = await bundleChild(path.join(__dirname, 'graph-child.ts'), work)
}, 60_000)

afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

function draw(library: string, cache: string): Promise<Drawn> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, library], { env: { ...process.env, SKILLBENCH_CACHE_DIR: cache }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Drawn) : reject(new Error(`child exited ${code}: ${err}`))))
  })
}

/** Every file under `dir` with its size and modification time (what a read must leave as it was). */
function snapshot(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort().map((f) => {
    const st = fs.lstatSync(path.join(dir, f))
    return `${f}:${st.size}:${st.mtimeMs}`
  })
}

const graphFiles = (cache: string): string[] => (fs.existsSync(path.join(cache, 'graphs')) ? fs.readdirSync(path.join(cache, 'graphs')).sort() : [])

describe('the overview graph kept in the cache folder', () => {
  it('a new process draws the map from the file an earlier one saved; a changed skill draws it again', async () => {
    const library = makeLibrary(60)
    const cache = path.join(work, 'cache-a')
    const first = await draw(library, cache)
    expect(first.computed).toBe(1)
    expect(first.graph.nodes.length).toBe(61)
    expect(first.graph.edges.length).toBeGreaterThan(0)
    expect(graphFiles(cache)).toHaveLength(1)
    const before = fs.readdirSync(library).map((f) => [f, fs.statSync(path.join(library, f)).mtimeMs])

    const second = await draw(library, cache)
    expect(second.computed).toBe(0)
    expect(second.graph).toEqual(first.graph)
    // drawing reads the library, never writes it
    expect(fs.readdirSync(library).map((f) => [f, fs.statSync(path.join(library, f)).mtimeMs])).toEqual(before)

    fs.appendFileSync(path.join(library, 'skill_3.md'), '\nAlso retry the upload with exponential backoff.\n')
    const third = await draw(library, cache)
    expect(third.computed).toBe(1)
    expect(graphFiles(cache)).toHaveLength(2)
  }, 60_000)

  it.runIf(HAS_REAL_DATA)('draws the real skills\' map once, then from the file, and leaves their folder as it was', async () => {
    const library = realPath('skills', 'anthropics_skills')
    const before = snapshot(library)
    const cache = path.join(work, 'cache-real')
    const first = await draw(library, cache)
    expect(first.computed).toBe(1)
    expect(first.graph.nodes.length).toBeGreaterThan(10)
    const second = await draw(library, cache)
    expect(second.computed).toBe(0)
    expect(second.graph).toEqual(first.graph)
    expect(snapshot(library)).toEqual(before)
  }, 60_000)

  it('does not trust a damaged file, nor a graph of other skills, and writes the right one over it', async () => {
    const library = makeLibrary(30)
    const cache = path.join(work, 'cache-b')
    const good = await draw(library, cache)
    const [name] = graphFiles(cache)
    const file = path.join(cache, 'graphs', name!)
    const saved = fs.readFileSync(file, 'utf8')

    fs.writeFileSync(file, saved.slice(0, saved.length / 2))
    const afterDamage = await draw(library, cache)
    expect(afterDamage.computed).toBe(1)
    expect(afterDamage.graph).toEqual(good.graph)
    expect(fs.readFileSync(file, 'utf8')).toBe(saved)

    const foreign = JSON.parse(saved) as Drawn['graph']
    foreign.nodes[0]!.id = 'not-a-skill-of-this-library'
    fs.writeFileSync(file, JSON.stringify(foreign))
    const afterForeign = await draw(library, cache)
    expect(afterForeign.computed).toBe(1)
    expect(afterForeign.graph).toEqual(good.graph)
  }, 60_000)

  it('two processes drawing at once leave one whole file and the same map', async () => {
    const library = makeLibrary(40)
    const cache = path.join(work, 'cache-c')
    const [a, b] = await Promise.all([draw(library, cache), draw(library, cache)])
    expect(a.graph).toEqual(b.graph)
    const files = graphFiles(cache)
    expect(files).toHaveLength(1)
    expect(JSON.parse(fs.readFileSync(path.join(cache, 'graphs', files[0]!), 'utf8'))).toEqual(a.graph)
    expect((await draw(library, cache)).computed).toBe(0)
  }, 60_000)

  it(`keeps the ${KEPT_GRAPH_FILES} newest graph files and nothing else of its own`, async () => {
    const cache = path.join(work, 'cache-d')
    const graph = { nodes: [{ id: 'a', title: 'A', quality: 0.5, cluster: -1 }], edges: [] }
    const key = (i: number): string => i.toString(16).padStart(64, '0')
    fs.mkdirSync(path.join(cache, 'graphs'), { recursive: true })
    fs.writeFileSync(path.join(cache, 'graphs', 'notes.txt'), 'not a graph')
    const total = KEPT_GRAPH_FILES + 3
    for (let i = 0; i < total; i++) {
      await saveCachedGraph(graphCacheFile(cache, key(i)), graph)
      // distinct times, oldest first, whatever the file system's resolution
      const t = new Date(Date.now() - (total - i) * 60_000)
      fs.utimesSync(graphCacheFile(cache, key(i)), t, t)
    }
    await saveCachedGraph(graphCacheFile(cache, key(total)), graph)
    const left = graphFiles(cache)
    expect(left).toContain('notes.txt')
    expect(left.filter((f) => f.endsWith('.json'))).toEqual(Array.from({ length: KEPT_GRAPH_FILES }, (_, j) => `${key(total - KEPT_GRAPH_FILES + 1 + j)}.json`))
  })
})
