import path from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')
let eslint: ESLint

/** The layer rule's messages for a module with this text at this place of the tree (nothing is written). */
async function layerErrors(rel: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, rel) })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'skillbench/layers').map((m) => m.message)
}

describe('the layer table (eslint-rules/layers.mjs)', () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT })
  })

  it('fails the lint on an upward import: static, type-only, re-export and dynamic', async () => {
    expect(await layerErrors('src/main/store/probe.ts', "import { loadPlan } from '../review/plan'\nexport const f = loadPlan\n")).toEqual([
      "'store' may not import 'review' (../review/plan): store may import shared (the layer table in eslint.config.mjs, docs/ARCHITECTURE.md)"
    ])
    expect(await layerErrors('src/main/review/probe.ts', "import type { CurateOptions } from '../curate/service'\nexport type X = CurateOptions\n")).toHaveLength(1)
    expect(await layerErrors('src/main/text/probe.ts', "export { loadStems } from '../curate/stem-cache'\n")).toHaveLength(1)
    expect(await layerErrors('src/main/mcp/probe.ts', "export const w = () => import('../workbench/context')\n")).toHaveLength(1)
    expect(await layerErrors('src/main/tools/probe.ts', "import { printJson } from '../cli/common'\nexport const p = printJson\n")).toHaveLength(1)
  })

  it('lets a floor import what the table allows, and itself', async () => {
    expect(await layerErrors('src/main/curate/probe.ts', "import { loadPlan } from '../review/plan'\nimport { withLibraryLock } from '../store/lock'\nimport { tokenize } from '../text/tokenize'\nimport { grouping } from './grouping'\nexport const all = [loadPlan, withLibraryLock, tokenize, grouping]\n")).toEqual([])
    expect(await layerErrors('src/main/workbench.ts', "import { createCoreModules } from './workbench/core-modules'\nexport const c = createCoreModules\n")).toEqual([])
  })

  it('asks for a floor for a folder the table does not know', async () => {
    expect(await layerErrors('src/main/newfloor/probe.ts', 'export const a = 1\n')).toEqual([
      'src/main/newfloor has no floor in the layer table: add it to LAYERS in eslint.config.mjs with what it may import'
    ])
  })

})
