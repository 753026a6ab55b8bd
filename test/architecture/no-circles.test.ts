import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { circles, importGraph } from './import-graph'
import { tempDir } from '../curate/fixtures'

const SRC = path.resolve(__dirname, '..', '..', 'src')

describe('import circles', () => {
  it('src has none (static, type-only and dynamic imports alike)', () => {
    const graph = importGraph(SRC)
    expect(graph.size).toBeGreaterThan(300)
    const found = circles(graph).map((c) => c.map((f) => path.relative(SRC, f)))
    expect(found).toEqual([])
  })

  it('finds a type-only circle and a dynamic one when there is one', () => {
    const dir = tempDir('circles')
    const write = (rel: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
      fs.writeFileSync(path.join(dir, rel), text)
    }
    write('a/types.ts', "import type { Report } from './decide'\nexport interface Draft { report?: Report }\n")
    write('a/decide.ts', "import type { Draft } from './types'\nexport interface Report { draft?: Draft }\n")
    write('b/Editor.tsx', "export const Lazy = () => import('./Monaco')\nexport interface Props { v: string }\n")
    write('b/Monaco.tsx', "import type { Props } from './Editor'\nexport const p: Props | null = null\n")
    write('c/leaf.ts', "export const x = 1\n")
    write('c/user.ts', "import { x } from './leaf'\nexport const y = x\n")
    const found = circles(importGraph(dir)).map((c) => c.map((f) => path.relative(dir, f)))
    expect(found.sort()).toEqual([
      ['a/decide.ts', 'a/types.ts'],
      ['b/Editor.tsx', 'b/Monaco.tsx']
    ])
  })
})
