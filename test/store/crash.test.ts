import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { CRASH_IDS, CRASH_MD_NAMES, crashBody } from './crash-writer'
import { listFiles, tempDir } from './helpers'

const KILLS = Number(process.env.SKILLBENCH_CRASH_KILLS ?? 200)

let work: string
let bundle: string
let dir: string

beforeAll(async () => {
  work = tempDir('sb-crash-')
  bundle = path.join(work, 'crash-writer.cjs')
  // Bundled once so each child starts in tens of milliseconds (tsx would take ~0.5 s per start).
  const { build } = await import('esbuild')
  await build({ entryPoints: [path.join(__dirname, 'crash-writer.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' })
  dir = path.join(work, 'lib')
  fs.mkdirSync(dir)
  const lib = await openLibrary(dir)
  for (const id of CRASH_IDS) await lib.create({ title: `崩溃测试 ${id}`, body: crashBody(0), skill_id: id })
  for (const name of CRASH_MD_NAMES) await lib.create({ title: name, format: 'skill-md', name, body: crashBody(0), description: 'crash test' })
})

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true })
})

interface Writer {
  ready: Promise<void>
  /** midWrite: kill when a temp file appears (a write in flight); else after a random delay. */
  run(midWrite: boolean): Promise<void>
}

/** Starts a writer process now (it loads, then waits); run() lets it write and SIGKILLs it after a random delay. */
function startWriter(start: number): Writer {
  const child = spawn(process.execPath, [bundle, dir, String(start)], { stdio: ['pipe', 'pipe', 'pipe'] })
  let err = ''
  let out = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  const waiters: Array<() => void> = []
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
    for (const w of waiters) w()
  })
  const seen = (word: string): Promise<void> =>
    new Promise((resolve, reject) => {
      waiters.push(() => {
        if (out.includes(word)) resolve()
      })
      void exited.then(() => reject(new Error(`writer exited before "${word}": ${err}`)))
    })
  const ready = seen('ready')
  const writing = seen('writing')
  return {
    ready,
    async run(midWrite: boolean) {
      await ready
      child.stdin.write('go\n')
      await writing
      if (midWrite) {
        // Aim at the write itself: kill as soon as a temp file shows up in the library folder.
        const until = Date.now() + 3000
        while (Date.now() < until && !fs.readdirSync(dir).some((n) => n.startsWith('.skillbench-tmp-'))) {
          await new Promise((r) => setImmediate(r))
        }
      } else {
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 150)))
      }
      child.kill('SIGKILL')
      const signal = await exited
      if (signal !== 'SIGKILL') throw new Error(`writer exited on its own: ${err}`)
    }
  }
}

/** Every skill exists exactly once (active or legacy), parses, and holds one whole version. */
async function verify(): Promise<{ swept: number; maxVersion: number }> {
  const lib = await openLibrary(dir)
  const { skills, errors } = await lib.list({ includeLegacy: true })
  expect(errors).toEqual([])
  expect(skills).toHaveLength(CRASH_IDS.length + CRASH_MD_NAMES.length)
  expect(new Set(skills.map((s) => s.skill_id)).size).toBe(skills.length)
  for (const id of CRASH_IDS) expect(skills.some((s) => s.skill_id === id)).toBe(true)
  let maxVersion = 0
  for (const s of skills) {
    expect(s.body).toBe(crashBody(s.fetch_count))
    maxVersion = Math.max(maxVersion, s.fetch_count)
  }
  expect(listFiles(dir).filter((f) => f.includes('.skillbench-tmp-'))).toEqual([])
  return { swept: lib.sweptTempFiles, maxVersion }
}

describe('crash safety', () => {
  it(`SIGKILL of a writer ${KILLS} times mid-write: no corrupt or lost skill, no temp file left after reopening`, async () => {
    let swept = 0
    let orphans = 0
    let versions = 0
    // A few writers load ahead, so process start-up overlaps with the current writer's run.
    const queue: Writer[] = [0, 1, 2].map((k) => startWriter(k * 10_000 + 1))
    for (let k = 0; k < KILLS; k++) {
      const w = queue.shift()!
      if (k + 3 < KILLS) queue.push(startWriter((k + 3) * 10_000 + 1))
      await w.run(k % 2 === 0)
      orphans += listFiles(dir).filter((f) => f.includes('.skillbench-tmp-')).length
      if (k % 10 === 9 || k === KILLS - 1) {
        const r = await verify()
        swept += r.swept
        versions = Math.max(versions, r.maxVersion)
      }
    }
    // The writers really wrote (versions advanced) and some kills really hit a write in flight (orphan temp files).
    expect(versions).toBeGreaterThan(0)
    expect(orphans).toBeGreaterThan(0)
    console.log(`[crash] ${KILLS} kills, ${orphans} killed mid-write (orphan temp files), ${swept} swept by verification opens, 0 corrupt/lost skills`)
  }, 240_000)
})
