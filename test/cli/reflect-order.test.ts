/**
 * `skillbench reflect` prints its tasks' lines in task order: a task needing no work (no skill worth making, already
 * reflected) finished at once and was said before the tasks still being read ("[4/5] Skipping …" above "[1/5]
 * Processing …"). A real offline run on a copy of the bundled sample data root, and the ordering on its own.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { TaskOrder } from '../../src/main/cli/task-order'
import { tempDir } from '../store/helpers'

const SAMPLE = path.resolve(__dirname, '..', '..', 'resources', 'sample-data')
let root: string

beforeEach(() => {
  root = path.join(tempDir('sb-reflect-order-'), 'data')
  fs.cpSync(SAMPLE, root, { recursive: true })
})

afterEach(() => {
  fs.rmSync(path.dirname(root), { recursive: true, force: true })
})

const run = (...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  runCli(argv, root, { HOME: path.dirname(root), SKILLBENCH_CACHE_DIR: path.join(path.dirname(root), 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' })

/** The [i/n] of each task line, in the order printed ("✅ …" lines belong to the task above them). */
const taskNumbers = (stderr: string): number[] => [...stderr.matchAll(/^\[(\d+)\/\d+\]/gm)].map((m) => Number(m[1]))

describe('reflect progress', () => {
  it('says each task in task order: the processed ones (newest first), then those that make no skill', async () => {
    const first = await run('reflect', '--root-dir', root, '--llm', 'offline')
    expect(first.code).toBe(0)
    const lines = first.stderr.trimEnd().split('\n')
    expect(lines[0]).toBe('Found 5 tasks to process')
    expect(taskNumbers(first.stderr)).toEqual([1, 2, 3, 4, 5])
    // each processed task's result right under it
    expect(lines.slice(1, 7).map((l) => l.replace(/ output_\d+_\d+\.\.\.$| \/.*$/, ''))).toEqual(['[1/5] Processing', '✅ Skill generated:', '[2/5] Processing', '✅ Skill generated:', '[3/5] Processing', '✅ Skill generated:'])
    expect(lines.slice(7)).toEqual(['[4/5] Skipping output_20261105_084500 (No skill: no work done)', '[5/5] Skipping output_20261103_110000 (No skill: unfinished)'])
    // a second run: all skipped, still in order
    const again = await run('reflect', '--root-dir', root, '--llm', 'offline')
    expect(taskNumbers(again.stderr)).toEqual([1, 2, 3, 4, 5])
    expect(again.stderr).toContain('[1/5] Skipping output_20261104_160000 (already reflected)')
  })

  it('TaskOrder: the head task prints live, a later one waits for those before it; a cancelled run flushes the rest', () => {
    const order = new TaskOrder()
    expect(order.push(1, 'start 1', false)).toEqual(['start 1'])
    expect(order.push(2, 'start 2', false)).toEqual([])
    expect(order.push(4, 'skip 4', true)).toEqual([])
    expect(order.push(2, 'done 2', true)).toEqual([])
    expect(order.push(1, 'done 1', true)).toEqual(['done 1', 'start 2', 'done 2'])
    expect(order.push(3, 'start 3', false)).toEqual(['start 3'])
    expect(order.push(5, 'skip 5', true)).toEqual([])
    // task 3 cancelled: it never ends; what waited comes out in order
    expect(order.rest()).toEqual(['skip 4', 'skip 5'])
    expect(order.rest()).toEqual([])
  })
})
