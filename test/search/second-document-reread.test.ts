/**
 * A saved search index keeps a loaded skill while its file's stat is unchanged. A build before reasons version 5 read
 * a front matter holding a second YAML document (a `...` line) as loaded, without what followed the line; this build
 * refuses it (parse.second_document). An index that build saved is read again, loaded files too, so the file is
 * listed as not loaded at once instead of as the skill the older build cut short.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type * as CodedReason from '../../src/shared/coded-reason'
import type * as FrontMatterYaml from '../../src/shared/front-matter-yaml'
import { loadSearchIndex } from '../../src/main/search/open'
import { LibrarySearch } from '../../src/main/search/library-search'

/** While set, the index is saved as the build of reasons version 4 saved it, and reads front matter as it did. */
const v4 = vi.hoisted(() => ({ on: false }))
vi.mock('../../src/shared/coded-reason', async (importOriginal) => {
  const real = await importOriginal<typeof CodedReason>()
  return {
    ...real,
    get CACHED_REASONS_VERSION() {
      return v4.on ? 4 : real.CACHED_REASONS_VERSION
    }
  }
})
vi.mock('../../src/shared/front-matter-yaml', async (importOriginal) => {
  const real = await importOriginal<typeof FrontMatterYaml>()
  return {
    ...real,
    readFrontMatterYaml: (...args: Parameters<typeof real.readFrontMatterYaml>) => {
      const read = real.readFrontMatterYaml(...args)
      return v4.on && read.problem?.coded.messageCode === 'parse.second_document' ? { doc: read.doc, problem: null } : read
    }
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const agi = (id: string, title: string, extra = ''): string =>
  `---\nskill_id: '${id}'\ntitle: ${title}\nusage_conditions: when needed\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00.000000'\nupdated_at: '2026-01-01T00:00:00.000000'\nlast_used_at: null\nuser_preferences: ''\n${extra}---\n\nBody of ${title}\n`

describe('an index saved before reasons version 5', () => {
  it('is read again, loaded files too: a front matter with a second document is listed as not loaded', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-second-doc-index-'))
    dirs.push(dir)
    fs.writeFileSync(path.join(dir, 'skill_fine.md'), agi('1790000011', 'Fine'))
    fs.writeFileSync(path.join(dir, 'skill_dots.md'), agi('1790000012', 'Dots', '...\ndescription: after the dots\n'))
    v4.on = true
    try {
      const older = await LibrarySearch.open(dir)
      older.index.closeFile()
      const saved = loadSearchIndex(dir)
      expect(saved.listing(true).skills.map((s) => s.path).sort()).toEqual(['skill_dots.md', 'skill_fine.md'])
      saved.closeFile()
    } finally {
      v4.on = false
    }
    const now = await LibrarySearch.open(dir)
    expect(now.changed).toBe(2)
    const { skills, errors } = now.index.listing(true)
    now.index.closeFile()
    expect(skills.map((s) => s.path)).toEqual(['skill_fine.md'])
    expect(errors).toEqual([expect.objectContaining({ path: 'skill_dots.md', messageCode: 'parse.second_document', params: { line: 13, marker: '...' } })])
  })
})
