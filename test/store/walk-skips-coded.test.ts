/**
 * What the tree walks pass over is told by code beside its unchanged words: links on disk come back from
 * `walkSkillTree` (under `index.json` and the format importer) as `load.link_not_followed`; a real FIFO, a unix
 * socket with a server listening on it (and a device node where one can be made) as `load.fifo|socket|device`,
 * from the library's walk and the skill tree walk alike — through the walks, the tree loader, in Chinese by the
 * renderer's table. Reading never blocks on a FIFO, never connects to a socket and changes nothing.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { CodedText } from '../../src/shared/error-codes'
import { messageRefOf } from '../../src/shared/message-match'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { walkLibrary, walkSkillTree } from '../../src/main/store/walk'
import { loadSkillTree } from '../../src/main/formats/tree'
import { hashTree, tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const LINK_WORDS = 'symbolic link: not followed (links are never read)'

function skillMd(name: string): string {
  return `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody.\n`
}

/** A tree with one real skill folder, a linked SKILL.md, a linked folder and a linked script inside a skill. */
function treeWithLinks(): string {
  const dir = tempDir('sb-walk-')
  dirs.push(dir)
  fs.mkdirSync(path.join(dir, 'pdf-tool', 'scripts'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'pdf-tool', 'SKILL.md'), skillMd('pdf-tool'))
  fs.writeFileSync(path.join(dir, 'pdf-tool', 'scripts', 'run.sh'), 'echo hi\n')
  fs.mkdirSync(path.join(dir, 'linked'))
  fs.symlinkSync(path.join(dir, 'pdf-tool', 'SKILL.md'), path.join(dir, 'linked', 'SKILL.md'))
  fs.symlinkSync('/usr/bin', path.join(dir, 'system'))
  return dir
}

describe('walkSkillTree tells what it passes over by code', () => {
  it('links: the same words as before, load.link_not_followed beside them, and Chinese by code', async () => {
    const dir = treeWithLinks()
    const before = hashTree(dir)
    const skipped: { rel: string; why: CodedText }[] = []
    const files: string[] = []
    await walkSkillTree(dir, (f) => files.push(f.rel), (rel, why) => skipped.push({ rel, why }))
    expect(files).toEqual(['pdf-tool/SKILL.md'])
    expect(skipped).toEqual([
      { rel: 'linked/SKILL.md', why: { text: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} } },
      { rel: 'system', why: { text: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} } }
    ])

    // the tree loader (import, export, use) keeps the words as `reason` and adds the code
    const { skills, errors, skipped: loaderSkipped } = await loadSkillTree(dir)
    expect(skills.map((s) => s.path)).toEqual(['pdf-tool/SKILL.md'])
    expect(errors).toEqual([])
    expect(loaderSkipped).toEqual([
      { path: 'linked/SKILL.md', reason: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} },
      { path: 'system', reason: LINK_WORDS, messageCode: 'load.link_not_followed', params: {} }
    ])
    const first = loaderSkipped[0]!
    expect(translateMessage(first, first.reason, 'zh')).toBe('符号链接：未跟随（从不读取链接）')
    expect(translateMessage(first, first.reason, 'en')).toBe(LINK_WORDS)
    // the words an older build sent read back to the same code (and not the listing's own link reason)
    expect(messageRefOf(LINK_WORDS)).toEqual({ messageCode: 'load.link_not_followed', params: {} })
    expect(hashTree(dir)).toEqual(before)
  })
})

const haveMkfifo = spawnSync('mkfifo', ['--version']).status === 0
const FIFO_WORDS = 'not a regular file (a FIFO): skipped'
const SOCKET_WORDS = 'not a regular file (a socket): skipped'
const DEVICE_WORDS = 'not a regular file (a device): skipped'

/** rel → what lstat says of every entry (links not followed; special files never opened): proves nothing changed. */
function statTree(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string): void => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name)
      const st = fs.lstatSync(p)
      out.set(path.relative(dir, p), `${st.mode}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`)
      if (st.isDirectory()) walk(p)
    }
  }
  walk(dir)
  return out
}

/** Fails (instead of hanging) when `work` has not finished within `ms`: a walk that opened a FIFO would wait for a writer. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still walking after ${ms} ms: blocked?`)), ms)))
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

/** True when nothing holds the FIFO open for reading, nor waits to: a non-blocking writer is refused (ENXIO). */
function fifoHasNoReader(fifo: string): boolean {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK))
    return false
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENXIO'
  }
}

/**
 * A library with one skill, a FIFO named like a skill file at the top, a FIFO named SKILL.md in a folder, and a unix
 * socket in the skill's folder with a server listening on it (counting the connections it gets).
 */
async function libraryWithSpecialFiles(): Promise<{ dir: string; server: net.Server; connections: () => number }> {
  const dir = tempDir('sb-walk-special-')
  dirs.push(dir)
  fs.mkdirSync(path.join(dir, 'pdf-tool'))
  fs.writeFileSync(path.join(dir, 'pdf-tool', 'SKILL.md'), skillMd('pdf-tool'))
  fs.mkdirSync(path.join(dir, 'piped'))
  for (const fifo of ['skill_pipe.md', 'piped/SKILL.md']) expect(spawnSync('mkfifo', [path.join(dir, fifo)]).status).toBe(0)
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    socket.destroy()
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path.join(dir, 'pdf-tool', 'agent.sock'), resolve))
  return { dir, server, connections: () => connections }
}

const byPath = <T extends { path: string }>(xs: T[]): T[] => [...xs].sort((a, b) => (a.path < b.path ? -1 : 1))

describe('FIFOs and sockets in a library: skipped by code, never opened', () => {
  it.runIf(haveMkfifo)('the library walk and the skill tree walk report each with its code; nothing blocks, connects or changes', async () => {
    const { dir, server, connections } = await libraryWithSpecialFiles()
    try {
      const before = statTree(dir)

      // the library's walk (listing, search index)
      const walk = await within(walkLibrary(dir), 10_000)
      expect(walk.candidates.map((c) => c.rel)).toEqual(['pdf-tool/SKILL.md'])
      expect(byPath(walk.skipped)).toEqual([
        { path: 'pdf-tool/agent.sock', reason: SOCKET_WORDS, kind: 'skipped', messageCode: 'load.socket', params: {} },
        { path: 'piped/SKILL.md', reason: FIFO_WORDS, kind: 'skipped', messageCode: 'load.fifo', params: {} },
        { path: 'skill_pipe.md', reason: FIFO_WORDS, kind: 'skipped', messageCode: 'load.fifo', params: {} }
      ])

      // the skill tree walk (index.json, import/export, use): the same codes for the same entries
      const files: string[] = []
      const skipped: { path: string; why: CodedText }[] = []
      await within(walkSkillTree(dir, (f) => files.push(f.rel), (rel, why) => skipped.push({ path: rel, why })), 10_000)
      expect(files).toEqual(['pdf-tool/SKILL.md'])
      expect(byPath(skipped)).toEqual([
        { path: 'pdf-tool/agent.sock', why: { text: SOCKET_WORDS, messageCode: 'load.socket', params: {} } },
        { path: 'piped/SKILL.md', why: { text: FIFO_WORDS, messageCode: 'load.fifo', params: {} } },
        { path: 'skill_pipe.md', why: { text: FIFO_WORDS, messageCode: 'load.fifo', params: {} } }
      ])

      // the tree loader reads the one skill and lists the three as skipped, in Chinese by code
      const loaded = await within(loadSkillTree(dir), 10_000)
      expect(loaded.skills.map((s) => s.path)).toEqual(['pdf-tool/SKILL.md'])
      expect(loaded.errors).toEqual([])
      const reasons = Object.fromEntries(loaded.skipped.map((s) => [s.path, s]))
      expect(reasons['skill_pipe.md']).toEqual({ path: 'skill_pipe.md', reason: FIFO_WORDS, messageCode: 'load.fifo', params: {} })
      expect(translateMessage(reasons['skill_pipe.md'], FIFO_WORDS, 'zh')).toBe('不是普通文件（是 FIFO）：已跳过')
      expect(translateMessage(reasons['pdf-tool/agent.sock'], SOCKET_WORDS, 'zh')).toBe('不是普通文件（是套接字）：已跳过')

      // never opened: no reader holds or waits on either FIFO, the server saw no connection, nothing changed
      expect(fifoHasNoReader(path.join(dir, 'skill_pipe.md'))).toBe(true)
      expect(fifoHasNoReader(path.join(dir, 'piped', 'SKILL.md'))).toBe(true)
      expect(connections()).toBe(0)
      expect(statTree(dir)).toEqual(before)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  // A device node needs CAP_MKNOD: an unprivileged run cannot make one, so this case runs only where `mknod` works
  // (the null device, 1:3, in the temp library: harmless even if something read it) and is skipped elsewhere.
  const probe = tempDir('sb-mknod-')
  dirs.push(probe)
  const canMknod = spawnSync('mknod', [path.join(probe, 'null'), 'c', '1', '3']).status === 0
  it.runIf(canMknod)('a device node: load.device from both walks, nothing changed', async () => {
    const dir = tempDir('sb-walk-device-')
    dirs.push(dir)
    fs.mkdirSync(path.join(dir, 'pdf-tool'))
    fs.writeFileSync(path.join(dir, 'pdf-tool', 'SKILL.md'), skillMd('pdf-tool'))
    expect(spawnSync('mknod', [path.join(dir, 'skill_dev.md'), 'c', '1', '3']).status).toBe(0)
    const before = statTree(dir)
    const walk = await within(walkLibrary(dir), 10_000)
    expect(walk.skipped).toEqual([{ path: 'skill_dev.md', reason: DEVICE_WORDS, kind: 'skipped', messageCode: 'load.device', params: {} }])
    const skipped: { path: string; why: CodedText }[] = []
    await within(walkSkillTree(dir, () => {}, (rel, why) => skipped.push({ path: rel, why })), 10_000)
    expect(skipped).toEqual([{ path: 'skill_dev.md', why: { text: DEVICE_WORDS, messageCode: 'load.device', params: {} } }])
    expect(translateMessage(walk.skipped[0], DEVICE_WORDS, 'zh')).toBe('不是普通文件（是设备）：已跳过')
    expect(statTree(dir)).toEqual(before)
  })
})
