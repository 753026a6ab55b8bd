import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { onOwnWrites, sameStamp, stampOf, type FileStamp } from '../../src/main/store/announce-writes'
import { writeFileAtomic, moveNoClobber, unlinkFile } from '../../src/main/store/atomic'
import { appendContained, ensureDirInside } from '../../src/main/store/contained'
import { OwnWrites } from '../../src/main/workbench/own-writes'
import { tempDir } from './helpers'

const file = (size: number, mtimeMs: number, ino: number): FileStamp => ({ kind: 'file', size, mtimeMs, ino })
const ABSENT: FileStamp = { kind: 'absent' }

describe('own writes: matching (pure)', () => {
  it('a path is ours only while what is there equals what our last write left; the answer consumes it', () => {
    const own = new OwnWrites(10_000)
    own.record('/l/a.md', file(10, 1000, 7), 0)
    own.noticed('/l/a.md', 5)
    expect(own.isOwn('/l/a.md', file(10, 1000, 7), 300)).toBe(true)
    // consumed: the same stamp again (another notification) is no longer explained by our write
    own.noticed('/l/a.md', 400)
    expect(own.isOwn('/l/a.md', file(10, 1000, 7), 600)).toBe(false)
  })

  it('another stamp (an atomic write: new inode; an append: new size; a rewrite: new time), an unknown path, a deletion not ours: news', () => {
    const own = new OwnWrites()
    own.record('/l/a.md', file(10, 1000, 7), 0)
    expect(own.isOwn('/l/a.md', file(10, 1000, 8), 1)).toBe(false)
    own.record('/l/a.md', file(10, 1000, 7), 0)
    expect(own.isOwn('/l/a.md', file(11, 1000, 7), 1)).toBe(false)
    own.record('/l/a.md', file(10, 1000, 7), 0)
    expect(own.isOwn('/l/a.md', file(10, 1001, 7), 1)).toBe(false)
    own.record('/l/a.md', file(10, 1000, 7), 0)
    expect(own.isOwn('/l/a.md', ABSENT, 1)).toBe(false)
    expect(own.isOwn('/l/b.md', file(10, 1000, 7), 1)).toBe(false)
    expect(own.isOwn('/l/b.md', ABSENT, 1)).toBe(false)
  })

  it('our deletion and our folders: absent is ours when we removed it; a folder by its inode', () => {
    const own = new OwnWrites()
    own.record('/l/gone.md', ABSENT, 0)
    expect(own.isOwn('/l/gone.md', ABSENT, 1)).toBe(true)
    own.record('/l/gone.md', ABSENT, 0)
    expect(own.isOwn('/l/gone.md', file(1, 1, 1), 1)).toBe(false) // someone made it again
    own.record('/l/dir', { kind: 'dir', ino: 5 }, 0)
    expect(own.isOwn('/l/dir', { kind: 'dir', ino: 5 }, 1)).toBe(true)
    own.record('/l/dir', { kind: 'dir', ino: 5 }, 0)
    expect(own.isOwn('/l/dir', { kind: 'dir', ino: 6 }, 1)).toBe(false)
    own.record('/l/new', { kind: 'pending' }, 0) // a mkdir not answered yet matches nothing
    expect(own.isOwn('/l/new', { kind: 'dir', ino: 9 }, 1)).toBe(false)
    expect(sameStamp({ kind: 'other' }, { kind: 'other' })).toBe(false)
  })

  it('a notification that came with no write of ours announced is news even when the file ends as we left it', () => {
    const own = new OwnWrites()
    own.noticed('/l/a.md', 0) // another process wrote it first
    own.record('/l/a.md', file(3, 50, 2), 10) // then we did, within the same batch
    own.noticed('/l/a.md', 11)
    expect(own.isOwn('/l/a.md', file(3, 50, 2), 300)).toBe(false)
  })

  it('the last write counts; announcements expire after the time given and the count is bounded', () => {
    const own = new OwnWrites(1_000, 3)
    own.record('/l/a.md', file(1, 1, 1), 0)
    own.record('/l/a.md', file(2, 2, 2), 1)
    expect(own.isOwn('/l/a.md', file(1, 1, 1), 2)).toBe(false)
    own.record('/l/a.md', file(1, 1, 1), 0)
    expect(own.isOwn('/l/a.md', file(1, 1, 1), 1_001)).toBe(false) // expired
    for (let i = 0; i < 5; i++) own.record(`/l/${i}.md`, file(i, i, i), 2_000)
    expect(own.size).toBe(3)
    expect(own.isOwn('/l/0.md', file(0, 0, 0), 2_001)).toBe(false) // the oldest went first
    expect(own.isOwn('/l/4.md', file(4, 4, 4), 2_001)).toBe(true)
  })
})

describe('own writes: what the store announces (real files)', () => {
  it('announces each write with the stamp the file then has, and nothing once nobody listens', async () => {
    const dir = fs.realpathSync(tempDir('announce'))
    const seen: Array<[string, FileStamp]> = []
    const stop = onOwnWrites((abs, stamp) => seen.push([abs, stamp]))
    const stampNow = (p: string): FileStamp => stampOf(fs.lstatSync(p, { throwIfNoEntry: false }))
    try {
      const a = path.join(dir, 'a.md')
      await writeFileAtomic(a, 'one')
      expect(seen).toEqual([[a, stampNow(a)]])
      await writeFileAtomic(path.join(dir, 'b.md'), 'two', { mustNotExist: true })
      expect(seen[1]).toEqual([path.join(dir, 'b.md'), stampNow(path.join(dir, 'b.md'))])
      seen.length = 0
      await appendContained(dir, 'sub/log.jsonl', 'x\n') // the folder made on the way, then the append
      expect(seen).toEqual([
        [path.join(dir, 'sub'), stampNow(path.join(dir, 'sub'))],
        [path.join(dir, 'sub', 'log.jsonl'), stampNow(path.join(dir, 'sub', 'log.jsonl'))]
      ])
      seen.length = 0
      await moveNoClobber(a, path.join(dir, 'legacy', 'a.md'))
      expect(seen).toEqual([
        [path.join(dir, 'legacy', 'a.md'), stampNow(path.join(dir, 'legacy', 'a.md'))],
        [a, ABSENT]
      ])
      seen.length = 0
      await unlinkFile(path.join(dir, 'b.md'))
      await ensureDirInside(dir, 'sub') // exists: not ours to announce
      expect(seen).toEqual([[path.join(dir, 'b.md'), ABSENT]])
    } finally {
      stop()
    }
    seen.length = 0
    await writeFileAtomic(path.join(dir, 'c.md'), 'unheard')
    expect(seen).toEqual([])
  })
})
