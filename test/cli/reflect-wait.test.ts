/**
 * `skillbench reflect` keeps its lines in task order (reflect-order), so a slow first task (a slow model answer) held
 * back every later task's lines and stderr said nothing for as long: the tool looked stuck. While lines are held, a
 * line says what they wait for every few seconds (a terminal's progress bar carries it instead). TaskOrder's pace on
 * a clock the test moves, and real runs of the CLI as a process against a model on 127.0.0.1 that answers the first
 * task only once stderr has said it waits for it.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TaskOrder, WAIT_NOTE_MS } from '../../src/main/cli/task-order'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { CALC_LOG, JOKE_LOG, SCRAPER_LOG, makeRoot } from '../reflect/make-root'

const ROOT = path.resolve(__dirname, '..', '..')

describe('TaskOrder: what held lines wait for, at a steady pace (the caller\'s clock)', () => {
  it('says nothing while nothing is held or before the pace; then the task waited on, its time, the later ones done', () => {
    const order = new TaskOrder(5_000)
    const t0 = 1_000_000
    order.heard(1, 'output_a', t0)
    expect(order.push(1, '[1/4] a', false, t0)).toEqual(['[1/4] a'])
    // the head alone: its lines print live, nothing waits
    expect(order.waiting(t0 + 60_000)).toBeUndefined()
    expect(order.note(t0 + 60_000)).toBeUndefined()
    order.heard(2, 'output_b', t0 + 1_000)
    expect(order.push(2, '[2/4] b', false, t0 + 1_000)).toEqual([])
    order.heard(4, 'output_d', t0 + 2_000)
    expect(order.push(4, '[4/4] skip d', true, t0 + 2_000)).toEqual([])
    // held since t0 + 1 s: the first note 5 s after that, not before
    expect(order.note(t0 + 5_999)).toBeUndefined()
    expect(order.waiting(t0 + 5_999)).toEqual({ index: 1, task: 'output_a', seconds: 5, later: 2, finished: 1, heldMs: 4_999 })
    expect(order.note(t0 + 6_000)).toEqual({ index: 1, task: 'output_a', seconds: 6, later: 2, finished: 1, heldMs: 5_000 })
    // not on every look: the next one a full pace after the last
    expect(order.note(t0 + 7_000)).toBeUndefined()
    expect(order.note(t0 + 10_999)).toBeUndefined()
    order.heard(2, 'output_b', t0 + 11_000)
    expect(order.push(2, '✅ b', true, t0 + 11_000)).toEqual([])
    expect(order.note(t0 + 11_000)).toEqual({ index: 1, task: 'output_a', seconds: 11, later: 2, finished: 2, heldMs: 10_000 })
    // the head ends: what waited prints in order; the next head (3) was never heard from: counted from the hold
    expect(order.push(1, '✅ a', true, t0 + 12_000)).toEqual(['✅ a', '[2/4] b', '✅ b'])
    expect(order.waiting(t0 + 12_000)).toEqual({ index: 3, seconds: 11, later: 1, finished: 1, heldMs: 11_000 })
    // lines just printed are news: the pace starts again from them
    expect(order.note(t0 + 16_999)).toBeUndefined()
    expect(order.note(t0 + 17_000)).toEqual({ index: 3, seconds: 16, later: 1, finished: 1, heldMs: 16_000 })
    order.heard(3, 'output_c', t0 + 18_000)
    expect(order.waiting(t0 + 20_000)).toEqual({ index: 3, task: 'output_c', seconds: 2, later: 1, finished: 1, heldMs: 19_000 })
    expect(order.push(3, '[3/4] c', false, t0 + 20_000)).toEqual(['[3/4] c'])
    // task 3 cancelled: the rest comes out, and nothing is waited for any more
    expect(order.rest()).toEqual(['[4/4] skip d'])
    expect(order.waiting(t0 + 90_000)).toBeUndefined()
    expect(order.note(t0 + 90_000)).toBeUndefined()
  })

  it('a hold that ends within the pace is never noted; the default pace is a few seconds', () => {
    const order = new TaskOrder()
    expect(WAIT_NOTE_MS).toBeGreaterThanOrEqual(2_000)
    expect(WAIT_NOTE_MS).toBeLessThanOrEqual(10_000)
    order.push(1, 'a', false, 0)
    order.push(2, 'b', true, 100)
    expect(order.note(WAIT_NOTE_MS)).toBeUndefined()
    expect(order.push(1, 'a done', true, WAIT_NOTE_MS)).toEqual(['a done', 'b'])
    expect(order.note(WAIT_NOTE_MS * 10)).toBeUndefined()
  })
})

const GOOD_ANSWER = [
  'Tested helper',
  '',
  'Steps that worked for this task.',
  '',
  'FILES_TO_BACKUP:',
  '',
  'USAGE_CONDITIONS: when a task like this comes again'
].join('\n')

const dirs: string[] = []
let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/**
 * A data root of three tasks in run order: [1/3] output_calc (newest), [2/3] output_scrape, [3/3] output_joke (no
 * work: skipped at once). The model answers the scraper at once and the calculator (the first task) only once the
 * CLI's stderr matches `until` (or after `capMs`, so a run that never says it still ends); `cancel`: it never answers
 * the calculator and the run gets a SIGINT once stderr matches `until`.
 */
async function slowFirst(lang: string[], until: RegExp, opts: { cancel?: boolean; capMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = makeRoot([
    { dir: 'alice/output_calc', log: CALC_LOG, ageSec: 10 },
    { dir: 'alice/output_scrape', log: SCRAPER_LOG, ageSec: 20 },
    { dir: 'alice/output_joke', log: JOKE_LOG, ageSec: 30 }
  ])
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reflect-wait-home-'))
  dirs.push(root, home)
  let stderr = ''
  const listeners = new Set<() => void>()
  const saw = (capMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!until.test(stderr)) return
        listeners.delete(check)
        clearTimeout(timer)
        resolve(true)
      }
      const timer = setTimeout(() => {
        listeners.delete(check)
        resolve(false)
      }, capMs)
      listeners.add(check)
      check()
    })
  server = await startOpenAiServer(async (req) => {
    const first = JSON.stringify(req.body).includes('Write a Python calculator')
    if (first) {
      if (opts.cancel) return new Promise(() => {}) // never: the run is cancelled meanwhile
      await saw(opts.capMs ?? 20_000)
    }
    return { json: chatCompletion(GOOD_ANSWER) }
  })
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...lang, 'reflect', '--root-dir', root, '--llm', 'openai', '--base-url', server.url, '--model', 'slow-model'], {
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '', OPENAI_API_KEY: 'sk-test-wait', HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), SKILLBENCH_CONFIG_DIR: path.join(home, 'config'), SKILLBENCH_CACHE_DIR: path.join(home, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const l of [...listeners]) l()
  })
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
  if (opts.cancel) {
    await saw(opts.capMs ?? 20_000)
    child.kill('SIGINT') // said or not (a run that never says it is cancelled all the same)
  }
  const code = await closed
  return { code, stdout, stderr }
}

/** stderr's lines with the paths of generated skills cut off. */
const linesOf = (stderr: string): string[] => stderr.trimEnd().split('\n').map((l) => l.replace(/^(✅ [^:：]*(?:: |：)).*$/, '$1…'))

describe('reflect behind a slow first task (a real run, a real model server on 127.0.0.1)', () => {
  it('says what it waits for, in order, before the first task\'s result; the rest follows in task order', async () => {
    const waitLine = /^Waiting for \[1\/3\] output_calc \((\d+) s\): 2 of 2 later task\(s\) finished, shown after it$/
    const run = await slowFirst([], new RegExp(waitLine.source, 'm'))
    expect(run.code).toBe(0)
    const lines = linesOf(run.stderr)
    const waits = lines.filter((l) => l.startsWith('Waiting for'))
    expect(waits.length).toBeGreaterThan(0)
    // every wait line says the first task, how long (counting up), and how many after it are done
    for (const w of waits) expect(w).toMatch(/^Waiting for \[1\/3\] output_calc \(\d+ s\): [0-2] of [12] later task\(s\) finished, shown after it$/)
    const seconds = waits.map((w) => Number(/\((\d+) s\)/.exec(w)![1]))
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b))
    expect(seconds[0]).toBeGreaterThanOrEqual(4)
    expect(lines.filter((l) => !l.startsWith('Waiting for'))).toEqual([
      'Found 3 tasks to process',
      '[1/3] Processing output_calc...',
      '✅ Skill generated: …',
      '[2/3] Processing output_scrape...',
      '✅ Skill generated: …',
      '[3/3] Skipping output_joke (No skill: no work done)'
    ])
    // the waits sit between the first task's start and its result
    expect(lines.indexOf(waits[0]!)).toBe(2)
    expect(lines.indexOf(waits.at(-1)!)).toBeLessThan(lines.indexOf('✅ Skill generated: …'))
    expect(run.stdout).toMatch(/^Created 2 skill\(s\); skipped 0 already reflected, 1 with no skill worth making; failed 0\.\n/)
    expect(run.stdout).not.toContain('Waiting')
  }, 90_000)

  it('says it in Chinese with --lang zh', async () => {
    const run = await slowFirst(['--lang', 'zh'], /^等待 \[1\/3\] output_calc（\d+ 秒）：后面 2 个任务中已完成 2 个，将在它之后显示$/m)
    expect(run.code).toBe(0)
    const lines = linesOf(run.stderr)
    const waits = lines.filter((l) => l.startsWith('等待'))
    expect(waits.length).toBeGreaterThan(0)
    for (const w of waits) expect(w).toMatch(/^等待 \[1\/3\] output_calc（\d+ 秒）：后面 [12] 个任务中已完成 [0-2] 个，将在它之后显示$/)
    expect(run.stderr).not.toContain('Waiting')
    expect(lines.filter((l) => !l.startsWith('等待'))).toEqual([
      '找到 3 个待处理的任务',
      '[1/3] 正在处理 output_calc…',
      '✅ 已生成技能：…',
      '[2/3] 正在处理 output_scrape…',
      '✅ 已生成技能：…',
      '[3/3] 跳过 output_joke（不生成技能：没有做实际工作）'
    ])
    expect(lines.indexOf(waits[0]!)).toBe(2)
    expect(lines.indexOf(waits.at(-1)!)).toBeLessThan(lines.indexOf('✅ 已生成技能：…'))
  }, 90_000)

  it('Ctrl-C while waiting: what was held still prints, in order', async () => {
    const said = /^Waiting for \[1\/3\] output_calc \(\d+ s\): 2 of 2 later task\(s\) finished, shown after it$/m
    const run = await slowFirst([], said, { cancel: true })
    expect(run.code).toBe(130)
    expect(run.stderr).toMatch(said)
    const lines = linesOf(run.stderr).filter((l) => !l.startsWith('Waiting for') && l !== '')
    expect(lines).toEqual([
      'Found 3 tasks to process',
      '[1/3] Processing output_calc...',
      'Cancelling… (press Ctrl-C again to quit now)',
      '[2/3] Processing output_scrape...',
      '✅ Skill generated: …',
      '[3/3] Skipping output_joke (No skill: no work done)'
    ])
  }, 90_000)

  it('on a terminal the progress bar carries it (redrawn in place), and no line is added', async () => {
    const root = makeRoot([
      { dir: 'alice/output_calc', log: CALC_LOG, ageSec: 10 },
      { dir: 'alice/output_scrape', log: SCRAPER_LOG, ageSec: 20 },
      { dir: 'alice/output_joke', log: JOKE_LOG, ageSec: 30 }
    ])
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reflect-wait-home-'))
    dirs.push(root, home)
    // the bar, redrawn after the terminal's line is cleared: 2 of 3 done, and what the held lines wait for
    const CLEAR = '\r\u001b[2K'
    const onBar = /^\[#{16}-{8}\] 2\/3 waiting for \[1\/3\] output_calc \(\d+ s\), 2 of 2 later done$/
    const barShown = (): boolean => stderr.split(CLEAR).some((seg) => onBar.test(seg))
    let stderr = ''
    let heard = (): void => {}
    const barSaid = new Promise<void>((resolve) => (heard = () => barShown() && resolve()))
    server = await startOpenAiServer(async (req) => {
      // the first task is answered once the bar has said it waits for it (at most 20 s: a run that never says it ends)
      if (JSON.stringify(req.body).includes('Write a Python calculator')) await Promise.race([barSaid, new Promise((r) => setTimeout(r, 20_000))])
      return { json: chatCompletion(GOOD_ANSWER) }
    })
    const io: CliIo = {
      stdout: () => {},
      stderr: (t) => {
        stderr += t
        heard()
      },
      isTTY: true,
      cwd: root,
      env: { OPENAI_API_KEY: 'sk-test-wait', HOME: home, SKILLBENCH_CONFIG_DIR: path.join(home, 'config'), SKILLBENCH_CACHE_DIR: path.join(home, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' },
      signal: new AbortController().signal
    }
    expect(await main(['reflect', '--root-dir', root, '--llm', 'openai', '--base-url', server.url, '--model', 'slow-model'], io)).toBe(0)
    expect(barShown()).toBe(true)
    expect(stderr).not.toContain('Waiting for')
    // the lines themselves as in a pipe, in task order (the bar's redraws cleared off them)
    const lines = stderr.split('\n').map((l) => l.split(CLEAR).at(-1)!).filter((l) => l && !/^\[[#-]/.test(l))
    expect(lines.map((l) => l.replace(/^(✅ [^:：]*(?:: |：)).*$/, '$1…'))).toEqual([
      'Found 3 tasks to process',
      '[1/3] Processing output_calc...',
      '✅ Skill generated: …',
      '[2/3] Processing output_scrape...',
      '✅ Skill generated: …',
      '[3/3] Skipping output_joke (No skill: no work done)'
    ])
  }, 90_000)
})
