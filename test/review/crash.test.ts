import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { buildSync } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { readJournal } from '../../src/main/review/journal'
import { acceptProposal, restoreSkill, undoApplied } from '../../src/main/review/decisions'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { makeLibrary, snapshot, SORTING, tempDir } from '../curate/fixtures'

const RUNS = 10
let childScript = ''

beforeAll(() => {
  // One bundle for all runs: a plain-node child starts in ~100 ms instead of a tsx transform each time.
  childScript = path.join(tempDir('crash-bundle'), 'crash-child.cjs')
  buildSync({ entryPoints: [path.join(__dirname, 'crash-child.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: childScript, logLevel: 'error' })
})

function variants(): string[] {
  // Five near-identical skills: one merge of five = 1 rewrite + 4 moves to legacy/.
  return [0, 1, 2, 3, 4].map((i) => `${SORTING}\nVariant note ${i}: keep comparator ${i} handy.\n`)
}

/** Runs the child and SIGKILLs it `killAfterMs` after it reports `marker` ('ready' or 'op N'). */
function runChild(root: string, id: string, marker: string, killAfterMs: number, mode = 'accept'): Promise<'killed' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, root, id, '3', mode], {
      cwd: path.resolve(__dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    let timer: NodeJS.Timeout | undefined
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.split('\n').includes(marker) && !timer) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    })
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (signal === 'SIGKILL') resolve('killed')
      else if (code === 0) resolve('finished')
      else reject(new Error(`child failed (${code}): ${err}`))
    })
  })
}

describe('crash during apply', () => {
  it('leaves the library exactly before or exactly after, whatever the kill point; undo then works', async () => {
    const template = makeLibrary(variants().map((body, i) => ({ id: String(2001 + i), title: `Sorting arrays ${i}`, body, quality: 0.5 + i / 100, created: '2026-11-01T00:00:00' })))
    const opened = await openForCuration(template)
    const plan = await curateLibrary(opened, { now: new Date('2026-11-21T12:00:00Z') })
    const merge = plan.proposals.find((p) => p.kind === 'merge')!
    expect(merge.members).toHaveLength(5)
    const before = snapshot(template)
    const reference = tempDir('crash-ref')
    fs.cpSync(template, reference, { recursive: true })
    await acceptProposal(fs.realpathSync(reference), merge.id, 'ref')
    const after = snapshot(reference)
    expect(after).not.toEqual(before)

    const opsCount = 5
    const outcomes = { before: 0, after: 0, killed: 0 }
    for (let run = 0; run < RUNS; run++) {
      const dir = tempDir('crash')
      fs.cpSync(template, dir, { recursive: true })
      const root = fs.realpathSync(dir)
      // Kill points spread over the whole transaction: at its start, right after any op, during the
      // commit (journal append, intent removal) or not at all.
      const k = run % (opsCount + 3)
      const marker = k === 0 ? 'ready' : k <= opsCount ? `op ${k - 1}` : `op ${opsCount - 1}`
      const delay = k <= opsCount ? Math.floor(Math.random() * 4) : k === opsCount + 1 ? 3 + Math.floor(Math.random() * 30) : 60_000
      const result = await runChild(root, merge.id, marker, delay)
      if (result === 'killed') outcomes.killed++
      const recovered = await openForCuration(root)
      expect(recovered.recovery.problems).toEqual([])
      const state = snapshot(root)
      if (JSON.stringify(state) === JSON.stringify(before)) {
        // A kill after the intent was written must have been rolled back by recovery.
        if (result === 'killed' && k > 0) expect(recovered.recovery.rolledBack).toHaveLength(1)
        outcomes.before++
        continue
      }
      expect(state).toEqual(after)
      outcomes.after++
      await undoApplied(root, merge.id, 'crash-test')
      expect(snapshot(root)).toEqual(before)
    }
    expect(outcomes.before + outcomes.after).toBe(RUNS)
    expect(outcomes.after).toBeGreaterThan(0)
    expect(outcomes.before).toBeGreaterThan(0)
    console.log(`[crash test] ${RUNS} runs: ${outcomes.killed} killed, ${outcomes.before} before, ${outcomes.after} after`)
  })
})

describe('crash during restore', () => {
  it('leaves the skill either in legacy/ without a record or restored with its journal record', async () => {
    // the second skill's fetch_count shows the library's agents keep it: the first one's 0 is evidence (issue 36)
    const template = makeLibrary([
      { id: '3001', title: 'Old haiku', body: 'Write a haiku about autumn leaves.\n', created: '2026-01-01T00:00:00' },
      { id: '3002', title: 'Deploy steps', body: 'Run docker compose up -d and check the health endpoint.\n', created: '2026-01-01T00:00:00', fetch: 4 }
    ])
    const opened = await openForCuration(template)
    const plan = await curateLibrary(opened, { now: new Date('2026-11-21T12:00:00Z') })
    const cleanup = plan.proposals.find((p) => p.kind === 'cleanup')!
    await acceptProposal(opened.root, cleanup.id, 'setup')
    const before = snapshot(template)
    const reference = tempDir('crash-restore-ref')
    fs.cpSync(template, reference, { recursive: true })
    await restoreSkill(await openForCuration(reference), '3001', 'ref')
    const after = snapshot(reference)
    expect(Object.keys(after).sort()).toEqual(['skill_3001.md', 'skill_3002.md'])

    const outcomes = { before: 0, after: 0 }
    const runs = 6
    for (let run = 0; run < runs; run++) {
      const dir = tempDir('crash-restore')
      fs.cpSync(template, dir, { recursive: true })
      const root = fs.realpathSync(dir)
      // Kill at the start, right after the move (before/while journaling), or not at all.
      const k = run % 3
      await runChild(root, '3001', k === 0 ? 'ready' : 'op 0', k === 0 ? Math.floor(Math.random() * 3) : k === 1 ? Math.floor(Math.random() * 3) : 60_000, 'restore')
      const recovered = await openForCuration(root)
      expect(recovered.recovery.problems).toEqual([])
      const restores = (await readJournal(root)).records.filter((r) => r.action === 'restore')
      if (JSON.stringify(snapshot(root)) === JSON.stringify(before)) {
        expect(restores).toEqual([])
        outcomes.before++
      } else {
        expect(snapshot(root)).toEqual(after)
        expect(restores).toHaveLength(1)
        expect(restores[0]).toMatchObject({ proposal_id: 'restore-3001', by: 'crash-test' })
        outcomes.after++
      }
    }
    expect(outcomes.before + outcomes.after).toBe(runs)
    expect(outcomes.after).toBeGreaterThan(0)
  })
})
