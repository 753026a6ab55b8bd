/**
 * Every module of src is reached from an entry the build compiles (electron.vite.config.ts's inputs, the
 * renderer's index.html script): a module nothing imports is dead code its tests keep looking alive
 * (formats/edit.ts was one: written for an in-place edit of learned YAML and MAS configs that no host ever offered).
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importGraph, unreachable } from './import-graph'
import { tempDir } from '../curate/fixtures'

const ROOT = path.resolve(__dirname, '..', '..')
const SRC = path.join(ROOT, 'src')

/** The build's entries: each `resolve(__dirname, 'src/…')` input of the config; an HTML one by its module scripts. */
function buildEntries(): string[] {
  const config = fs.readFileSync(path.join(ROOT, 'electron.vite.config.ts'), 'utf8')
  const inputs = [...config.matchAll(/resolve\(__dirname, '(src\/[^']+\.(?:tsx?|html))'\)/g)].map((m) => path.join(ROOT, m[1]!))
  return inputs.flatMap((file) => {
    if (!file.endsWith('.html')) return [file]
    const html = fs.readFileSync(file, 'utf8')
    return [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => path.resolve(path.dirname(file), m[1]!))
  })
}

describe('dead modules', () => {
  it('src has none: every module is imported on the way from one of the build\'s entries', () => {
    const entries = buildEntries()
    expect(entries.map((e) => path.relative(SRC, e)).sort()).toEqual([
      'main/app/main.ts',
      'main/cli/index.ts',
      'main/search/read-worker.ts',
      'preload/index.ts',
      'renderer/main.tsx'
    ])
    for (const e of entries) expect(fs.existsSync(e), e).toBe(true)
    const graph = importGraph(SRC)
    expect(graph.size).toBeGreaterThan(300)
    expect(unreachable(graph, entries).map((f) => path.relative(SRC, f))).toEqual([])
  })

  it('finds a module nothing imports, and one only a dead module imports', () => {
    const dir = tempDir('dead-modules')
    const write = (rel: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
      fs.writeFileSync(path.join(dir, rel), text)
    }
    write('main.ts', "import { y } from './a/user'\nexport const z = () => import('./lazy')\nexport { y }\n")
    write('a/user.ts', "import type { T } from './types'\nexport const y: T = 1\n")
    write('a/types.ts', 'export type T = number\n')
    write('lazy.ts', 'export const l = 1\n')
    write('dead/edit.ts', "import { h } from './helper'\nexport const e = h\n")
    write('dead/helper.ts', 'export const h = 1\n')
    const found = unreachable(importGraph(dir), [path.join(dir, 'main.ts')]).map((f) => path.relative(dir, f))
    expect(found).toEqual(['dead/edit.ts', 'dead/helper.ts'])
  })
})
