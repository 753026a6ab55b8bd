/**
 * The app's core modules over the one composition (services/library-services): one services object per library,
 * found by its real path whatever path names it, and its changed search index saved when the core closes.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadSearchIndex } from '../../src/main/search/open'
import { createCoreModules } from '../../src/main/workbench/core-modules'
import { makeLibrary, skillText } from '../search/library-fixture'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('the core modules over library services', () => {
  it('a library named through a link is the same library: one store, its list and search answers alike', async () => {
    const dir = makeLibrary(12)
    const link = `${dir}-link`
    fs.symlinkSync(dir, link)
    dirs.push(dir, link)
    const core = await createCoreModules()
    try {
      const store = await core.openLibrary(link)
      expect(store.root).toBe(dir)
      expect(await core.openLibrary(dir)).toBe(store)
      const listed = await core.listSkills(dir, false)
      const { skills } = await store.list()
      expect(listed.skills.map((s) => s.skill_id).sort()).toEqual(skills.filter((s) => !s.legacy).map((s) => s.skill_id).sort())
      const hits = await core.query(store, 'retry http timeout', 3)
      expect(hits.status).toBe('success')
      expect(hits.skills.length).toBeGreaterThan(0)
    } finally {
      await core.close()
    }
  })

  it('closing saves a changed index for the next process (not left to its save timer)', async () => {
    const dir = makeLibrary(10)
    dirs.push(dir)
    const core = await createCoreModules()
    const store = await core.openLibrary(dir)
    await core.query(store, 'retry http timeout', 3)
    // a skill written after the index opened: taken in at the next query, saved at close
    fs.writeFileSync(path.join(dir, 'skill_1799999999.md'), skillText(999).replace(/skill_id: .*/, 'skill_id: "1799999999"'))
    await core.listSkills(dir, false)
    await core.close()
    const saved = loadSearchIndex(dir)
    try {
      expect(saved.pathOf('1799999999')).toBe('skill_1799999999.md')
    } finally {
      saved.closeFile()
    }
  })
})
