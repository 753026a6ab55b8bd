/** `readUseHistory`: the library's recorded query hits, archived and current, read without following a link. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LEDGER_ARCHIVE_REL, LEDGER_REL, readUseHistory } from '../../src/main/store/ledger'
import { openLibrary } from '../../src/main/store/library'

let tmp: string
let lib: string
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-history-')))
  lib = path.join(tmp, 'lib')
  fs.mkdirSync(path.join(lib, LEDGER_ARCHIVE_REL), { recursive: true })
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

const line = (r: unknown): string => JSON.stringify(r) + '\n'

describe('readUseHistory', () => {
  it('reads the archived ledgers oldest first, then the current one; only use records; a torn last line waits', async () => {
    fs.writeFileSync(path.join(lib, LEDGER_ARCHIVE_REL, 'usage-20261002T000000Z-2.jsonl'), line({ t: 'use', ids: ['2'], at: '2026-10-02T00:00:00', via: 'mcp' }) + line({ t: 'fold', paths: [], at: 'x' }))
    fs.writeFileSync(path.join(lib, LEDGER_ARCHIVE_REL, 'usage-20261001T000000Z-1.jsonl'), line({ t: 'use', ids: ['1'], at: '2026-10-01T00:00:00' }))
    fs.writeFileSync(path.join(lib, LEDGER_ARCHIVE_REL, 'notes.txt'), line({ t: 'use', ids: ['x'], at: 'y' }))
    fs.writeFileSync(path.join(lib, LEDGER_REL), line({ t: 'write', paths: ['a'], at: 'z' }) + line({ t: 'use', ids: ['3', '4'], at: '2026-11-01T00:00:00', via: 'cli' }) + 'garbage\n{"t":"use","ids":["5"],"at":"2026')
    const before = fs.statSync(path.join(lib, LEDGER_REL))
    const { uses, problems } = await readUseHistory(lib)
    expect(uses).toEqual([
      { ids: ['1'], at: '2026-10-01T00:00:00' },
      { ids: ['2'], at: '2026-10-02T00:00:00', via: 'mcp' },
      { ids: ['3', '4'], at: '2026-11-01T00:00:00', via: 'cli' }
    ])
    expect(problems).toEqual([])
    // reading changes nothing
    expect(fs.statSync(path.join(lib, LEDGER_REL)).mtimeMs).toBe(before.mtimeMs)
  })

  it('sees what query_skill recorded through the store (touch), and nothing for a library without a ledger', async () => {
    expect(await readUseHistory(path.join(tmp, 'nothing-here'))).toEqual({ uses: [], problems: [] })
    fs.writeFileSync(path.join(lib, 'skill_a.md'), "---\nskill_id: '1768000000'\ntitle: A\nusage_conditions: ''\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00'\nupdated_at: '2026-01-01T00:00:00'\nlast_used_at: null\nuser_preferences: ''\n---\n\nbody\n")
    const store = await openLibrary(lib)
    await store.recordUse(['1768000000'], { via: 'mcp' })
    const { uses } = await readUseHistory(store.root)
    expect(uses.map((u) => [u.ids, u.via])).toEqual([[['1768000000'], 'mcp']])
  })

  it('never reads through a link: a linked archive folder or ledger is named and skipped', async () => {
    const outside = path.join(tmp, 'outside')
    fs.mkdirSync(outside)
    fs.writeFileSync(path.join(outside, 'usage-1.jsonl'), line({ t: 'use', ids: ['9'], at: '2026-01-01T00:00:00' }))
    fs.rmSync(path.join(lib, LEDGER_ARCHIVE_REL), { recursive: true })
    fs.symlinkSync(outside, path.join(lib, LEDGER_ARCHIVE_REL))
    fs.symlinkSync(path.join(outside, 'usage-1.jsonl'), path.join(lib, LEDGER_REL))
    const { uses, problems } = await readUseHistory(lib)
    expect(uses).toEqual([])
    expect(problems).toHaveLength(2)
    expect(problems.join('\n')).toMatch(/usage-archive.*symbolic link/)
    expect(problems.join('\n')).toMatch(/usage\.jsonl.*symbolic link/)
  })
})
