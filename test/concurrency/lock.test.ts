/**
 * The library lock across real processes: mutual exclusion under contention, takeover of a dead holder's lock
 * (also when many waiters race for it, and when a taker died mid-takeover), never of a live holder's, bounded
 * waits with a clear error, and no way through a symbolic link.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withLibraryLock } from '../../src/main/store/lock'
import { StoreError } from '../../src/main/store/types'
import { bundleChild } from '../helpers/bundle-child'
import { hashTree, tempDir } from '../store/helpers'

let work: string
let child: string

beforeAll(async () => {
  work = tempDir('sb-lock-')
  child = await bundleChild(path.join(__dirname, 'lock-child.ts'), work)
})

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true })
})

function freshRoot(): string {
  const root = fs.mkdtempSync(path.join(work, 'lib-'))
  return fs.realpathSync(root)
}

/** Runs the child to its end; resolves with its stdout. */
function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    p.on('error', reject)
    p.on('close', () => (err ? reject(new Error(err)) : resolve(out)))
  })
}

/** Starts the child and resolves once it printed `word` (the process keeps running). */
function startUntil(args: string[], word: string): Promise<{ pid: number; done: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    const done = new Promise<string>((r) => p.on('close', () => r(out)))
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes(word)) resolve({ pid: p.pid!, done })
    })
    p.on('error', reject)
  })
}

/** A pid that belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(r.stdout.toString())
}

function deadRecord(nonce: string): string {
  return JSON.stringify({ pid: deadPid(), start: '1', boot: '', host: os.hostname(), nonce, purpose: 'crashed test', at: new Date().toISOString() })
}

function lockFiles(root: string): string[] {
  return fs.readdirSync(path.join(root, '.skillbench')).sort()
}

describe('the library lock, across processes', () => {
  it('six processes incrementing one counter under the lock never overlap and lose no increment', async () => {
    const root = freshRoot()
    fs.writeFileSync(path.join(root, 'counter'), '0')
    const outs = await Promise.all(Array.from({ length: 6 }, () => run(['count', root, '150'])))
    expect(outs.map((o) => o.trim())).toEqual(Array(6).fill('ok'))
    expect(fs.readFileSync(path.join(root, 'counter'), 'utf8')).toBe('900')
    expect(lockFiles(root)).toEqual([]) // no lock, no staged record, no claim left behind
  })

  it('a lock left by a SIGKILLed holder is taken over at once (no waiting for it to age)', async () => {
    const root = freshRoot()
    const holder = await startUntil(['die', root], 'held')
    await holder.done
    expect(lockFiles(root)).toContain('lock')
    let ran = false
    await withLibraryLock(root, async () => void (ran = true), { timeoutMs: 2000 })
    expect(ran).toBe(true)
  })

  it("a live holder's lock is never taken over: a waiter gets a clear 'library busy' error naming the holder, then gets it after release", async () => {
    const root = freshRoot()
    const holder = await startUntil(['hold', root, '2500'], 'held')
    const err = await withLibraryLock(root, async () => 'no', { timeoutMs: 300 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StoreError)
    expect((err as StoreError).code).toBe('busy')
    expect((err as StoreError).message).toMatch(new RegExp(`^library busy: another Skillbench process \\(pid ${holder.pid}, test holder\\)`))
    expect(await holder.done).toContain('released')
    expect(await withLibraryLock(root, async () => 'yes', { timeoutMs: 1000 })).toBe('yes')
  })

  it('many waiters racing to take over one dead lock: exactly one inside at a time, no increment lost', async () => {
    const root = freshRoot()
    fs.mkdirSync(path.join(root, '.skillbench'))
    fs.writeFileSync(path.join(root, '.skillbench', 'lock'), deadRecord('aaaaaaaaaaaaaaaaaaaaaaaa'))
    fs.writeFileSync(path.join(root, 'counter'), '0')
    const outs = await Promise.all(Array.from({ length: 6 }, () => run(['count', root, '40'])))
    expect(outs.map((o) => o.trim())).toEqual(Array(6).fill('ok'))
    expect(fs.readFileSync(path.join(root, 'counter'), 'utf8')).toBe('240')
    expect(lockFiles(root)).toEqual([])
  })

  it('a takeover interrupted by the taker dying (its claim left behind) does not block the library', async () => {
    const root = freshRoot()
    const dir = path.join(root, '.skillbench')
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, 'lock'), deadRecord('bbbbbbbbbbbbbbbbbbbbbbbb'))
    fs.writeFileSync(path.join(dir, 'lock.broken.bbbbbbbbbbbbbbbbbbbbbbbb'), deadRecord('cccccccccccccccccccccccc'))
    expect(await withLibraryLock(root, async () => 'in', { timeoutMs: 2000 })).toBe('in')
    expect(lockFiles(root)).not.toContain('lock')
  })

  it.runIf(process.platform === 'linux')('a recycled pid (this very pid, but another process start time) counts as dead', async () => {
    const root = freshRoot()
    fs.mkdirSync(path.join(root, '.skillbench'))
    const rec = { pid: process.pid, start: '1', boot: '', host: os.hostname(), nonce: 'dddddddddddddddddddddddd', purpose: 'old', at: '' }
    fs.writeFileSync(path.join(root, '.skillbench', 'lock'), JSON.stringify(rec))
    expect(await withLibraryLock(root, async () => 'in', { timeoutMs: 1000 })).toBe('in')
  })

  it('is never taken through a symbolic link: a linked .skillbench or lock file is refused and the outside is untouched', async () => {
    const outside = tempDir('sb-lock-outside-')
    fs.writeFileSync(path.join(outside, 'sentinel'), 'keep')
    const before = hashTree(outside)
    const a = freshRoot()
    fs.symlinkSync(outside, path.join(a, '.skillbench'))
    await expect(withLibraryLock(a, async () => 'no')).rejects.toMatchObject({ code: 'path_escape' })
    const b = freshRoot()
    fs.mkdirSync(path.join(b, '.skillbench'))
    fs.symlinkSync(path.join(outside, 'sentinel'), path.join(b, '.skillbench', 'lock'))
    await expect(withLibraryLock(b, async () => 'no', { timeoutMs: 300 })).rejects.toMatchObject({ code: 'path_escape' })
    expect(hashTree(outside)).toEqual(before)
    fs.rmSync(outside, { recursive: true, force: true })
  })
})

describe('the library lock, within one process', () => {
  it('queues concurrent holders, lets a holder re-enter, and bounds the wait', async () => {
    const root = freshRoot()
    const order: string[] = []
    const slow = withLibraryLock(root, async () => {
      order.push('a-in')
      // re-entry from inside does not wait for itself
      await withLibraryLock(root, async () => void order.push('a-nested'))
      await new Promise((r) => setTimeout(r, 50))
      order.push('a-out')
    })
    const next = withLibraryLock(root, async () => void order.push('b'))
    await Promise.all([slow, next])
    expect(order).toEqual(['a-in', 'a-nested', 'a-out', 'b'])
    let release!: () => void
    const held = withLibraryLock(root, () => new Promise<void>((r) => (release = r)))
    await new Promise((r) => setTimeout(r, 20))
    await expect(withLibraryLock(root, async () => 'no', { timeoutMs: 100 })).rejects.toMatchObject({ code: 'busy' })
    release()
    await held
    expect(await withLibraryLock(root, async () => 'yes')).toBe('yes')
  })
})
