import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiEvent } from '../../src/shared/api'
import { onOwnWrites } from '../../src/main/store/announce-writes'
import { appendContained, writeContained } from '../../src/main/store/contained'
import { OwnWrites } from '../../src/main/workbench/own-writes'
import { createWatchers, isIgnoredPath, type WatcherSet } from '../../src/main/workbench/watcher'
import { tempDir, waitForEvent } from './helpers'

let active: WatcherSet | undefined
afterEach(() => {
  active?.dispose()
  active = undefined
})

function changedPaths(events: ApiEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'files.changed' ? e.paths : []))
}

describe('file watching', () => {
  it('ignores temp files, editor swap files and VCS folders', () => {
    expect(isIgnoredPath('.skillbench-tmp-abc.tmp')).toBe(true)
    expect(isIgnoredPath('legacy/.skill_x.md.123.tmp')).toBe(true)
    expect(isIgnoredPath('skill_x.md~')).toBe(true)
    expect(isIgnoredPath('.skill_x.md.swp')).toBe(true)
    expect(isIgnoredPath('.git/index')).toBe(true)
    expect(isIgnoredPath('skill_x.md')).toBe(false)
    expect(isIgnoredPath('legacy/skill_x.md')).toBe(false)
  })

  it('reports outside changes in a library, batched, and drops the echo of the app\'s own writes', async () => {
    const lib = fs.realpathSync(tempDir('lib'))
    const events: ApiEvent[] = []
    const ownWrites = new OwnWrites()
    const stop = onOwnWrites((abs, stamp) => ownWrites.record(abs, stamp, Date.now()))
    try {
      active = createWatchers({ emit: (e) => events.push(e), ownWrites, debounceMs: 100 })
      await active.update({ libraries: [lib], roots: [] }) // every folder watched from here on

      // our own writes through the store (an atomic write, an append, a folder made on the way): no event
      await writeContained(lib, 'skill_own.md', 'own')
      await appendContained(lib, '.skillbench/usage.jsonl', '{"use":1}\n')
      fs.writeFileSync(path.join(lib, '.skillbench-tmp-1.tmp'), 'temp')
      // a fence: an outside write after those; once it is reported, the watcher has seen them too
      fs.writeFileSync(path.join(lib, 'skill_fence.md'), 'fence')
      await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('skill_fence.md'))
      expect(changedPaths(events)).toEqual(['skill_fence.md'])
      events.length = 0

      // someone else edits two files: one event naming both (relative paths)
      fs.writeFileSync(path.join(lib, 'skill_a.md'), 'a')
      fs.mkdirSync(path.join(lib, 'legacy'))
      fs.writeFileSync(path.join(lib, 'legacy', 'skill_b.md'), 'b')
      const event = await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('legacy/skill_b.md'))
      expect(event).toMatchObject({ type: 'files.changed', library: lib })
      expect(changedPaths(events)).toContain('skill_a.md')
      expect(changedPaths(events)).not.toContain('.skillbench-tmp-1.tmp')
      events.length = 0

      // a later outside change to the file we wrote is news again
      fs.writeFileSync(path.join(lib, 'skill_own.md'), 'changed by an editor')
      await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('skill_own.md'))
      events.length = 0

      // our write, then at once another process's to the same files (same size too): both reported
      await writeContained(lib, 'skill_own.md', 'ours')
      await appendContained(lib, '.skillbench/usage.jsonl', '{"use":2}\n')
      fs.writeFileSync(path.join(lib, 'skill_own.md'), 'them')
      fs.appendFileSync(path.join(lib, '.skillbench', 'usage.jsonl'), '{"use":3}\n')
      await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('skill_own.md') && e.paths.includes('.skillbench/usage.jsonl'))
      events.length = 0

      // another process's write first, then ours to the same file within the same batch: reported
      fs.writeFileSync(path.join(lib, 'skill_a.md'), 'theirs')
      await writeContained(lib, 'skill_a.md', 'ours after')
      await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('skill_a.md'))
    } finally {
      stop()
    }
  })

  it('a new skill folder, and a file written into it at once, are reported; the folder is watched from then on', async () => {
    const lib = fs.realpathSync(tempDir('lib'))
    const events: ApiEvent[] = []
    active = createWatchers({ emit: (e) => events.push(e), ownWrites: new OwnWrites(), debounceMs: 50 })
    await active.update({ libraries: [lib], roots: [] })
    fs.mkdirSync(path.join(lib, 'new-skill'))
    fs.writeFileSync(path.join(lib, 'new-skill', 'SKILL.md'), 'first')
    // reported by the folder's own watch or by the look into it right after that watch started: watched either way
    await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('new-skill/SKILL.md'))
    events.length = 0
    fs.writeFileSync(path.join(lib, 'new-skill', 'SKILL.md'), 'second')
    await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('new-skill/SKILL.md'))
  })

  it('keeps reporting in a library holding symbolic-link loops, and never through a link', async () => {
    // Node 20's recursive fs.watch goes quiet after it meets a link to an ancestor; the folder watches here are
    // one non-recursive watch per folder found by a walk that does not follow links.
    const lib = fs.realpathSync(tempDir('lib'))
    fs.mkdirSync(path.join(lib, 'tool', 'deep'), { recursive: true })
    fs.writeFileSync(path.join(lib, 'tool', 'SKILL.md'), 'first')
    fs.symlinkSync('..', path.join(lib, 'tool', 'up')) // the library itself
    fs.symlinkSync('../..', path.join(lib, 'tool', 'deep', 'back'))
    fs.symlinkSync('self', path.join(lib, 'self')) // a link to itself (ELOOP)
    const events: ApiEvent[] = []
    active = createWatchers({ emit: (e) => events.push(e), ownWrites: new OwnWrites(), debounceMs: 50 })
    await active.update({ libraries: [lib], roots: [] })
    fs.writeFileSync(path.join(lib, 'tool', 'SKILL.md'), 'changed')
    await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('tool/SKILL.md'))
    // a new folder (the watcher walks again, meeting the links) and a write in it; then an old file again
    fs.mkdirSync(path.join(lib, 'tool', 'deep', 'more'))
    fs.writeFileSync(path.join(lib, 'tool', 'deep', 'more', 'SKILL.md'), 'new')
    await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('tool/deep/more/SKILL.md'))
    fs.writeFileSync(path.join(lib, 'tool', 'deep', 'more', 'SKILL.md'), 'newer')
    fs.writeFileSync(path.join(lib, 'skill_1.md'), 'one')
    await waitForEvent(events, (e) => e.type === 'files.changed' && e.paths.includes('skill_1.md'))
    // no path reported through a link (a watch that followed one would name tool/up/tool/SKILL.md and the like)
    expect(changedPaths(events).filter((p) => /(^|\/)(up|back|self)\//.test(p))).toEqual([])
  })

  it('notices new tasks and growing logs in a data root (polling), and stops when unwatched', async () => {
    const root = fs.realpathSync(tempDir('root'))
    fs.mkdirSync(path.join(root, 'alice', 'output_1', 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'alice', 'output_1', 'logs', 'manager.out'), 'start\n')
    const events: ApiEvent[] = []
    active = createWatchers({ emit: (e) => events.push(e), ownWrites: new OwnWrites(), debounceMs: 50, rootPollMs: 100 })
    await active.update({ libraries: [], roots: [root] }) // the first poll has taken the signatures
    fs.appendFileSync(path.join(root, 'alice', 'output_1', 'logs', 'manager.out'), 'more\n')
    fs.mkdirSync(path.join(root, 'alice', 'output_2', 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'alice', 'output_2', 'logs', 'manager.out'), 'new task\n')
    await waitForEvent(events, (e) => e.type === 'files.changed' && e.root === root && e.paths.includes('alice/output_2/logs/manager.out'))
    expect(changedPaths(events)).toContain('alice/output_1/logs/manager.out')
    active.update({ libraries: [], roots: [] })
    events.length = 0
    // a second watcher on the same root, polling as often, is the signal: once it has reported the write twice
    // (two polls later), the unwatched one would have reported it too
    const fenceEvents: ApiEvent[] = []
    const fence = createWatchers({ emit: (e) => fenceEvents.push(e), ownWrites: new OwnWrites(), debounceMs: 50, rootPollMs: 100 })
    try {
      await fence.update({ libraries: [], roots: [root] })
      fs.writeFileSync(path.join(root, 'alice', 'output_2', 'logs', 'agent_001.out'), 'x')
      await waitForEvent(fenceEvents, (e) => e.type === 'files.changed' && e.paths.includes('alice/output_2/logs/agent_001.out'))
      fenceEvents.length = 0
      fs.appendFileSync(path.join(root, 'alice', 'output_2', 'logs', 'agent_001.out'), 'y')
      await waitForEvent(fenceEvents, (e) => e.type === 'files.changed' && e.paths.includes('alice/output_2/logs/agent_001.out'))
    } finally {
      fence.dispose()
    }
    expect(events).toEqual([])
  })
})
