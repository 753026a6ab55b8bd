/** The one composition of a library's services (CLI, MCP server, search daemon): one-shot and kept alike. */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ScanResult } from '../../src/shared/types'
import { openLibraryServices } from '../../src/main/services/library-services'
import { createSkillTools } from '../../src/main/tools/skill-tools'
import { openLibrary } from '../../src/main/store/library'
import { makeLibrary, QUERIES } from '../search/library-fixture'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function library(n: number): string {
  const dir = makeLibrary(n)
  dirs.push(dir)
  return dir
}

describe('library services', () => {
  it('a command (one-shot) and a long-lived process (kept) rank every query as the store listed in memory does', async () => {
    const dir = library(60)
    const once = await openLibraryServices(dir, { env: process.env, via: 'cli' })
    const kept = await openLibraryServices(dir, { env: process.env, via: 'mcp', keep: true })
    const plain = createSkillTools(await openLibrary(dir))
    try {
      expect(once.search).toBeNull()
      expect(kept.search).not.toBeNull()
      for (const q of QUERIES) {
        const index = await once.index()
        const a = await (await once.tools({ index })).query_skill(q, { top: 5, touch: false })
        const b = await (await kept.tools()).query_skill(q, { top: 5, touch: false })
        const c = await plain.query_skill(q, { top: 5, touch: false })
        expect(a).toEqual(c)
        expect(b).toEqual(c)
      }
      // one store per lifetime: asked twice, opened once
      expect(await once.library()).toBe(await once.library())
      expect(await once.library({ lazy: false })).not.toBe(await once.library())
    } finally {
      once.close()
      kept.close()
    }
  })

  it('a kept index sees a write made after it opened; a change through its tools sticks', async () => {
    const dir = library(20)
    const kept = await openLibraryServices(dir, { env: process.env, keep: true })
    try {
      const before = (await kept.index()).activeCount
      const first = fs.readdirSync(dir).find((f) => f.endsWith('.md'))!
      fs.writeFileSync(path.join(dir, 'skill_9999999.md'), fs.readFileSync(path.join(dir, first), 'utf8').replace(/skill_id: .*/, 'skill_id: "9999999"'))
      expect((await kept.index({ full: true })).activeCount).toBe(before + 1)
      const rated = await (await kept.tools({ lazy: false })).rate_skill('9999999', 1)
      expect(rated.status).toBe('success')
      expect(fs.readFileSync(path.join(dir, 'skill_9999999.md'), 'utf8')).toMatch(/quality_index: /)
    } finally {
      kept.close()
    }
  })

  it('reports a missing library with the store\'s message, from the store and the index alike', async () => {
    const missing = path.join(library(1), 'nope')
    const s = await openLibraryServices(missing, { env: process.env })
    await expect(s.library()).rejects.toMatchObject({ code: 'not_found', message: `library folder not found: ${missing}` })
    await expect(s.index()).rejects.toMatchObject({ code: 'not_found' })
  })

  it('the usage report of the active skills: from a listing at hand, or listing the library itself', async () => {
    const dir = library(8)
    const s = await openLibraryServices(dir, { env: process.env })
    const listed = (await openLibrary(dir)).list()
    const skills = (await listed).skills.filter((k) => !k.legacy)
    const given = await s.usage({ skills, sources: [], persist: false })
    const own = await s.usage({ sources: [], persist: false })
    expect(given.report.skills.map((k) => k.skill_id).sort()).toEqual(skills.map((k) => k.skill_id).sort())
    expect(own.report.skills.map((k) => k.skill_id).sort()).toEqual(given.report.skills.map((k) => k.skill_id).sort())
    expect(given.library).toBe(fs.realpathSync(dir))
  })

  it("the app's usage: its own scan of each source, and a report for a library folder not made yet", async () => {
    const dir = library(3)
    const missing = path.join(dir, 'later')
    const s = await openLibraryServices(missing, { env: process.env, keep: true })
    const scanned: string[] = []
    const scan = async (source: { dir: string }): Promise<ScanResult> => {
      scanned.push(source.dir)
      return { root: source.dir, tasks: [], skipped: [] }
    }
    const { report, library: root, saveProblems } = await s.usage({ skills: [], sources: [{ kind: 'agiagent', dir }], scan })
    expect(scanned).toEqual([dir])
    expect(root).toBe(missing)
    expect(report.skills).toEqual([])
    expect(saveProblems).toEqual([])
    // without skills the library is listed: a missing folder is the store's error
    await expect(s.usage({ sources: [], scan })).rejects.toMatchObject({ code: 'not_found' })
    s.close()
  })

  it('a store that could not be opened is opened again at the next ask (the app outlives a missing folder)', async () => {
    const dir = path.join(library(1), 'made-later')
    const s = await openLibraryServices(dir, { env: process.env, keep: true })
    try {
      await expect(s.library({ lazy: false })).rejects.toMatchObject({ code: 'not_found' })
      fs.mkdirSync(dir)
      expect((await s.library({ lazy: false })).root).toBe(fs.realpathSync(dir))
      expect(await s.library({ lazy: false })).toBe(await s.library({ lazy: false }))
    } finally {
      s.close()
    }
  })
})
