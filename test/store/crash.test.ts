/**
 * Crash safety: writer processes are SIGKILLed hundreds of times at every step of the write protocol (temp file
 * opened, mid-write, fsynced, around renames and moves) and at random moments from outside; after each kill the
 * library must hold every skill exactly once, whole, and reopening sweeps the temp files.
 *
 * Cheap by design: the child is one bundled file, starts while the previous writer runs, and dies after a few
 * writes at an aimed step (no parent-side polling); two independent libraries are crashed side by side.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { CRASH_IDS, CRASH_MD_NAMES, CRASH_PHASES, crashBody, type CrashPhase } from './crash-writer'
import { listFiles, tempDir } from './helpers'

const KILLS = Number(process.env.SKILLBENCH_CRASH_KILLS ?? 200)
const LANES = 2

let work: string
let bundle: string
const libs: string[] = []

beforeAll(async () => {
  work = tempDir('sb-crash-')
  bundle = path.join(work, 'crash-writer.cjs')
  // Bundled once so each child starts in tens of milliseconds (tsx would take ~0.5 s per start).
  const { build } = await import('esbuild')
  await build({ entryPoints: [path.join(__dirname, 'crash-writer.ts')], bundle: true, minify: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' })
  for (let l = 0; l < LANES; l++) {
    const dir = path.join(work, `lib${l}`)
    fs.mkdirSync(dir)
    const lib = await openLibrary(dir)
    for (const id of CRASH_IDS) await lib.create({ title: `崩溃测试 ${id}`, body: crashBody(0), skill_id: id })
    for (const name of CRASH_MD_NAMES) await lib.create({ title: name, format: 'skill-md', name, body: crashBody(0), description: 'crash test' })
    libs.push(dir)
  }
})

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true })
})

interface Outcome {
  /** The phase the child reported dying at (self-kill), or 'external'. */
  phase: CrashPhase
  /** A temp file of the writer was open when it died (self-kills report it; external kills: seen on disk). */
  midWrite: boolean
  /** CPU time of the child (self-kills only). */
  cpuMs?: number
}

/** Temp files anywhere under `dir` (names only: cheap enough to run after every kill). */
function tempFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => path.basename(f).startsWith('.skillbench-tmp-'))
}

interface Writer {
  run(): Promise<Outcome>
}

/** Starts a writer process now (it loads, then waits for `go`); run() lets it write until it is killed. */
function startWriter(dir: string, start: number, phase: CrashPhase, countdown: number): Writer {
  const env = { ...process.env }
  delete env.NODE_OPTIONS // a light child: no loaders or hooks inherited from the test runner
  const child = spawn(process.execPath, [bundle, dir, String(start), phase, String(countdown)], { stdio: ['pipe', 'pipe', 'pipe'], env })
  let err = ''
  let out = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  // 'close', not 'exit': only then has every line the writer printed before its kill been read from its stdout
  // ('exit' can come first on a loaded machine, and the kill line would look missing)
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)))
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
      void exited.then(() => (out.includes(word) ? resolve() : reject(new Error(`writer exited before "${word}": ${err}`))))
    })
  const ready = seen('ready')
  return {
    async run() {
      await ready
      child.stdin.write('go\n')
      if (phase === 'external') {
        await seen('writing')
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)))
        child.kill('SIGKILL')
      }
      // A self-kill that never comes (it always does within a few writes) is turned into an external one.
      const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
      const signal = await exited
      clearTimeout(guard)
      if (signal !== 'SIGKILL') throw new Error(`writer exited on its own: ${err}`)
      const m = /kill (\S+) (true|false) (\d+)/.exec(out)
      if (phase !== 'external' && !m) throw new Error(`writer was not killed at ${phase}: ${out}`)
      return { phase, midWrite: m ? m[2] === 'true' : tempFiles(dir).length > 0, cpuMs: m ? Number(m[3]) : undefined }
    }
  }
}

/** Every skill exists exactly once (active or legacy), parses, and holds one whole version. */
async function verify(dir: string): Promise<{ swept: number; maxVersion: number }> {
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
  it(`SIGKILL of a writer ${KILLS} times at every step of a write: no corrupt or lost skill, no temp file left after reopening`, async () => {
    const perLane = Math.ceil(KILLS / LANES)
    const hits = new Map<CrashPhase, number>()
    let midWrite = 0
    let orphans = 0
    let swept = 0
    let versions = 0
    const childCpu: number[] = []
    const plan = (lane: number, k: number): [number, CrashPhase, number] => [
      (lane * perLane + k) * 10_000 + 1,
      CRASH_PHASES[(k + lane) % CRASH_PHASES.length]!,
      1 + Math.floor(Math.random() * 3)
    ]
    await Promise.all(
      libs.map(async (dir, lane) => {
        // Two writers load ahead, so process start-up overlaps with the current writer's run.
        const queue: Writer[] = [0, 1].map((k) => startWriter(dir, ...plan(lane, k)))
        for (let k = 0; k < perLane; k++) {
          const w = queue.shift()!
          if (k + 2 < perLane) queue.push(startWriter(dir, ...plan(lane, k + 2)))
          const r = await w.run()
          hits.set(r.phase, (hits.get(r.phase) ?? 0) + 1)
          if (r.midWrite) midWrite++
          orphans += tempFiles(dir).length
          if (r.cpuMs !== undefined) childCpu.push(r.cpuMs)
          if (k % 10 === 9 || k === perLane - 1) {
            const v = await verify(dir)
            swept += v.swept
            versions = Math.max(versions, v.maxVersion)
          }
        }
      })
    )
    // The writers really wrote, every step was hit, and many kills landed with a temp file being written.
    expect(versions).toBeGreaterThan(0)
    for (const phase of CRASH_PHASES) expect(hits.get(phase) ?? 0).toBeGreaterThanOrEqual(Math.floor(KILLS / CRASH_PHASES.length) - 1)
    expect(midWrite).toBeGreaterThanOrEqual(Math.floor(KILLS / 3))
    expect(orphans).toBeGreaterThan(0)
    console.log(
      `[crash] ${LANES * perLane} kills (${[...hits].map(([p, n]) => `${p} ${n}`).join(', ')}), ${midWrite} with a temp file being written, ` +
        `${orphans} orphan temp files, ${swept} swept by verification opens, 0 corrupt/lost skills; ` +
        `child CPU median ${childCpu.sort((a, b) => a - b)[Math.floor(childCpu.length / 2)] ?? 0} ms`
    )
  }, 240_000)
})
