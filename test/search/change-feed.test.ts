/**
 * The change feed (file notifications) and a LibrarySearch kept current by it: every kind of write seen at the very
 * next use, no stat of every file needed, rankings equal to a fresh engine over the store's listing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { classifyEvent, notificationGap, watchLibrary, type EntryKind } from '../../src/main/search/change-feed'
import { LibrarySearch } from '../../src/main/search/library-search'
import { engineAnswer, expectSameRanking, makeLibrary, skillText } from './library-fixture'

describe('classifyEvent', () => {
  const kinds: Record<string, EntryKind> = { 'notes.txt': 'file', 'new-folder': 'dir', legacy: 'dir', 'tool/references/a.md': 'file', 'link-dir': 'other' }
  const kindOf = (rel: string): EntryKind => kinds[rel] ?? 'gone'
  const watched = (rel: string): boolean => rel === 'old-folder' || rel === 'tool'

  it('names skill files (written, created or removed) and passes over what holds no skill', () => {
    expect(classifyEvent('', 'skill_1.md', kindOf, watched)).toEqual({ path: 'skill_1.md' })
    expect(classifyEvent('legacy', 'skill_2.md', kindOf, watched)).toEqual({ path: 'legacy/skill_2.md' })
    expect(classifyEvent('tool', 'SKILL.md', kindOf, watched)).toEqual({ path: 'tool/SKILL.md' })
    expect(classifyEvent('', 'notes.txt', kindOf, watched)).toBe('ignore')
    expect(classifyEvent('tool/references', 'a.md', kindOf, watched)).toBe('ignore')
    expect(classifyEvent('', '.skillbench', kindOf, watched)).toBe('ignore')
    expect(classifyEvent('', 'logs', kindOf, watched)).toBe('ignore')
    expect(classifyEvent('', 'link-dir', kindOf, watched)).toBe('ignore')
    expect(classifyEvent('', 'skill_1.md.123-abcd.tmp', kindOf, watched)).toBe('ignore')
    expect(classifyEvent('', 'gone-editor-swap', kindOf, watched)).toBe('ignore')
  })

  it('asks for a walk when a folder appears, goes away or the name is unknown', () => {
    expect(classifyEvent('', 'new-folder', kindOf, watched)).toBe('full')
    expect(classifyEvent('', 'old-folder', kindOf, watched)).toBe('full')
    expect(classifyEvent('', 'legacy', kindOf, watched)).toBe('full')
    expect(classifyEvent('', null, kindOf, watched)).toBe('full')
  })
})

describe('notificationGap', () => {
  it('trusts notifications only on Linux local filesystems, and says why not elsewhere', () => {
    const gap = notificationGap(fs.realpathSync(path.resolve(__dirname)))
    if (process.platform === 'linux') {
      const type = fs.statfsSync(__dirname).type
      // ext4, xfs, btrfs, tmpfs, overlayfs… are local; anything else must be reported as a gap.
      if ([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630].includes(type)) expect(gap).toBeNull()
      else expect(gap).toMatch(/every file is checked/)
    } else {
      expect(gap).toMatch(/every file is checked/)
    }
    expect(notificationGap('/no/such/folder/anywhere')).toMatch(/every file is checked/)
  })
})

const open: LibrarySearch[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.close()
})

/** A LibrarySearch kept current by notifications (saved only at close). */
function watchedSearch(dir: string): LibrarySearch {
  const s = new LibrarySearch(dir, { keep: true, feed: watchLibrary(dir), saveDelayMs: 60_000 })
  open.push(s)
  return s
}

describe.runIf(process.platform === 'linux' && notificationGap(fs.realpathSync(os.tmpdir())) === null)('LibrarySearch with a change feed', () => {
  it('sees every kind of write at the next use, with no wait', async () => {
    const dir = makeLibrary(40)
    const search = watchedSearch(dir)
    await search.current()
    const top = async (q: string): Promise<string | undefined> => (await search.current()).query(q, 1)[0]?.path

    // In place, same length: a write an mtime-and-size check within the same tick could miss; notifications do not.
    const file = path.join(dir, 'skill_5.md')
    const before = fs.readFileSync(file, 'utf8')
    const i = before.lastIndexOf('\n', before.length - 2)
    fs.writeFileSync(file, before.slice(0, i + 1) + 'quokkazebra'.padEnd(before.length - i - 2, ' ') + '\n')
    expect(fs.statSync(file).size).toBe(Buffer.byteLength(before))
    expect(await top('quokkazebra')).toBe('skill_5.md')

    fs.writeFileSync(path.join(dir, 'skill_900.md'), skillText(900).replace(/\n$/, '\nnarwhalpenguin\n'))
    expect(await top('narwhalpenguin')).toBe('skill_900.md')

    // A new SKILL.md folder (a folder event: the whole library is walked, the new folder watched from then on).
    fs.mkdirSync(path.join(dir, 'deep', 'tool'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'deep', 'tool', 'SKILL.md'), '---\nname: tool\ndescription: axolotl wrangling\n---\naxolotl\n')
    expect(await top('axolotl wrangling')).toBe('deep/tool/SKILL.md')
    fs.writeFileSync(path.join(dir, 'deep', 'tool', 'SKILL.md'), '---\nname: tool\ndescription: capybara grooming\n---\ncapybara\n')
    expect(await top('capybara grooming')).toBe('deep/tool/SKILL.md')

    // Removed, moved away, atomically replaced.
    fs.rmSync(path.join(dir, 'skill_900.md'))
    expect(await top('narwhalpenguin')).not.toBe('skill_900.md')
    fs.renameSync(path.join(dir, 'deep'), path.join(dir, 'deeper'))
    expect(await top('capybara grooming')).toBe('deeper/tool/SKILL.md')
    fs.writeFileSync(path.join(dir, 'tmp-next'), skillText(7).replace(/\n$/, '\nokapiwombat\n'))
    fs.renameSync(path.join(dir, 'tmp-next'), path.join(dir, 'skill_7.md'))
    expect(await top('okapiwombat')).toBe('skill_7.md')

    // After all that, the ranking is the in-memory engine's over a fresh listing of the files.
    for (const q of ['retry http timeout', '写一个计算器 除零保护', 'capybara grooming']) {
      expectSameRanking((await search.current()).query(q, 5).map((h) => ({ path: h.path, score: h.score })), await engineAnswer(dir, q, 5))
    }
  })

  it('keeps the ranking exact through a burst of random writes by another process', async () => {
    const dir = makeLibrary(60)
    const search = watchedSearch(dir)
    await search.current()
    let seed = 11
    const rnd = (n: number): number => (seed = (seed * 48271) % 2147483647) % n
    for (let round = 0; round < 6; round++) {
      // Writes by a child process: notifications from another process, as from an editor or an agent.
      const ops: string[] = []
      for (let k = 0; k < 15; k++) {
        const i = rnd(80)
        const op = rnd(3)
        const f = JSON.stringify(path.join(dir, `skill_${i}.md`))
        if (op === 0) ops.push(`fs.rmSync(${f}, { force: true })`)
        else ops.push(`fs.writeFileSync(${f}, ${JSON.stringify(skillText(i + round * 100))})`)
      }
      const { spawnSync } = await import('node:child_process')
      expect(spawnSync(process.execPath, ['-e', `const fs = require('fs');\n${ops.join('\n')}`]).status).toBe(0)
      for (const q of ['sort a csv column with pandas', '网页 爬虫 数据 清洗']) {
        expectSameRanking((await search.current()).query(q, 5).map((h) => ({ path: h.path, score: h.score })), await engineAnswer(dir, q, 5))
      }
    }
  })

  it('keeps seeing writes in a library holding symbolic-link loops, and indexes nothing through them', async () => {
    // Node 20's recursive fs.watch goes quiet after it meets a link to an ancestor; the feed watches each folder
    // the walk listed, and the walk follows no link.
    const dir = makeLibrary(10)
    fs.mkdirSync(path.join(dir, 'tool', 'deep'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'tool', 'SKILL.md'), '---\nname: tool\ndescription: loop tool\n---\nfirst\n')
    fs.symlinkSync('..', path.join(dir, 'tool', 'up'))
    fs.symlinkSync('../..', path.join(dir, 'tool', 'deep', 'back'))
    fs.symlinkSync('self', path.join(dir, 'self'))
    const search = watchedSearch(dir)
    const top = async (q: string): Promise<string | undefined> => (await search.current()).query(q, 1)[0]?.path
    expect(await top('loop tool')).toBe('tool/SKILL.md')
    // Only a notification can tell the index of this write (a feed re-reads only the files it names).
    fs.writeFileSync(path.join(dir, 'tool', 'SKILL.md'), '---\nname: tool\ndescription: loop tool\n---\nwalrusmango\n')
    expect(await top('walrusmango')).toBe('tool/SKILL.md')
    fs.mkdirSync(path.join(dir, 'tool', 'deep', 'more'))
    fs.writeFileSync(path.join(dir, 'tool', 'deep', 'more', 'SKILL.md'), '---\nname: more\ndescription: ibex saddle\n---\nibex\n')
    expect(await top('ibex saddle')).toBe('tool/deep/more/SKILL.md')
    fs.writeFileSync(path.join(dir, 'skill_3.md'), skillText(3).replace(/\n$/, '\ntapirlemon\n'))
    expect(await top('tapirlemon')).toBe('skill_3.md')
    // every indexed path is a file of the library reached without a link
    const listed = (await search.listing(true)).skills.map((s) => s.path)
    expect(listed.filter((p) => /(^|\/)(up|back|self)\//.test(p))).toEqual([])
    expect(listed).toContain('tool/deep/more/SKILL.md')
  })

  it('walks the whole library when too many notifications came to trust them', async () => {
    const dir = makeLibrary(10)
    const feed = watchLibrary(dir)
    try {
      feed.track([''])
      feed.take()
      for (let i = 0; i < 1200; i++) fs.writeFileSync(path.join(dir, `skill_${1000 + (i % 300)}.md`), 'x')
      await new Promise((r) => setTimeout(r, 100))
      expect(feed.take()).toEqual({ full: true, paths: [] })
      fs.writeFileSync(path.join(dir, 'skill_3.md'), 'y')
      await new Promise((r) => setTimeout(r, 50))
      expect(feed.take()).toEqual({ full: false, paths: ['skill_3.md'] })
    } finally {
      feed.close()
    }
  })
})
