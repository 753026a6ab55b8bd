/**
 * `skillbench reflect --json` behind a slow first task: the lines saying what held lines wait for ("Waiting for
 * [1/3] …") are progress, and progress goes to stderr under --json as for every command (curate, sync, scan): stdout
 * is the summary's JSON alone, which a script reads with JSON.parse. A real run of the CLI as a process (node
 * bin/skillbench.cjs) against a model on 127.0.0.1 that answers the first task only once stderr has said it waits.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { CALC_LOG, JOKE_LOG, SCRAPER_LOG, makeRoot } from '../reflect/make-root'

const ROOT = path.resolve(__dirname, '..', '..')
const ANSWER = 'Tested helper\n\nSteps that worked for this task.\n\nFILES_TO_BACKUP:\n\nUSAGE_CONDITIONS: when a task like this comes again'

const dirs: string[] = []
let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A run of three tasks whose first (the calculator) is answered once stderr matches `until` (at most 20 s). */
async function slowFirst(args: string[], until: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = makeRoot([
    { dir: 'alice/output_calc', log: CALC_LOG, ageSec: 10 },
    { dir: 'alice/output_scrape', log: SCRAPER_LOG, ageSec: 20 },
    { dir: 'alice/output_joke', log: JOKE_LOG, ageSec: 30 }
  ])
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reflect-json-home-'))
  dirs.push(root, home)
  let stderr = ''
  let heard = (): void => {}
  const said = new Promise<void>((resolve) => (heard = () => until.test(stderr) && resolve()))
  server = await startOpenAiServer(async (req) => {
    if (JSON.stringify(req.body).includes('Write a Python calculator')) await Promise.race([said, new Promise((r) => setTimeout(r, 20_000))])
    return { json: chatCompletion(ANSWER) }
  })
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...args, 'reflect', '--root-dir', root, '--llm', 'openai', '--base-url', server.url, '--model', 'slow-model', '--json'], {
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '', OPENAI_API_KEY: 'sk-test-json', HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), SKILLBENCH_CONFIG_DIR: path.join(home, 'config'), SKILLBENCH_CACHE_DIR: path.join(home, 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    heard()
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

interface Summary {
  created: { taskDir: string }[]
  skipped: { taskDir: string; messageCode?: string }[]
  failed: unknown[]
}

describe('reflect --json while lines wait behind a slow task (a real CLI process)', () => {
  it('stdout is the JSON summary alone; the waiting lines are on stderr', async () => {
    const run = await slowFirst([], /^Waiting for \[1\/3\] output_calc \(\d+ s\)/m)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/^Waiting for \[1\/3\] output_calc \(\d+ s\): \d of \d later task\(s\) finished, shown after it$/m)
    expect(run.stdout).not.toContain('Waiting')
    const summary = JSON.parse(run.stdout) as Summary
    expect(summary.created.map((c) => c.taskDir).sort()).toEqual(['output_calc', 'output_scrape'])
    expect(summary.skipped.map((s) => s.taskDir)).toEqual(['output_joke'])
    expect(summary.failed).toEqual([])
  }, 90_000)

  it('the same in Chinese (--lang zh words stderr only; stdout stays the JSON)', async () => {
    const run = await slowFirst(['--lang', 'zh'], /^等待 \[1\/3\] output_calc（\d+ 秒）/m)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/^等待 \[1\/3\] output_calc（\d+ 秒）/m)
    expect(run.stdout).not.toMatch(/Waiting|等待/)
    const summary = JSON.parse(run.stdout) as Summary
    expect(summary.created.map((c) => c.taskDir).sort()).toEqual(['output_calc', 'output_scrape'])
  }, 90_000)
})
