import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { progressBar } from '../../src/main/cli/commands/reflect'
import { libraryDirFor } from '../../src/main/reflect/run-reflection'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { CALC_LOG, JOKE_LOG, makeRoot, skillFiles } from './make-root'

function io(env: NodeJS.ProcessEnv = {}, isTTY = false) {
  const out = { stdout: '', stderr: '' }
  const value: CliIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    isTTY,
    cwd: process.cwd(),
    env,
    signal: new AbortController().signal
  }
  return { io: value, out }
}

let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('skillbench reflect', () => {
  it('prints progress on stderr and a summary; a second run creates nothing', async () => {
    const root = makeRoot([
      { dir: 'alice/output_1', log: CALC_LOG, ageSec: 10 },
      { dir: 'output_2', log: JOKE_LOG }
    ])
    const a = io()
    expect(await main(['reflect', '--root-dir', root], a.io)).toBe(0)
    expect(a.out.stderr).toContain('Found 2 tasks to process')
    expect(a.out.stderr).toContain('[1/2] Processing output_1...')
    expect(a.out.stderr).toContain('[2/2] Skipping output_2 (No skill: no work done)')
    expect(a.out.stdout).toMatch(/Created 1 skill\(s\); skipped 0 already reflected, 1 with no skill worth making; failed 0/)
    expect(a.out.stdout).toContain('  – output_2: no work done')
    expect(a.out.stderr).not.toContain('[#')

    const b = io({}, true)
    expect(await main(['reflect', '--root-dir', root, '--json'], b.io)).toBe(0)
    const summary = JSON.parse(b.out.stdout) as { created: unknown[]; skipped: { reason: string; why?: string }[] }
    expect(summary.created).toEqual([])
    // the task with no work is judged again (never frozen), and still says why
    // --json: the English reason as before, its code and params beside it
    expect([...summary.skipped].sort((x, y) => x.reason.localeCompare(y.reason))).toEqual([
      { taskDir: 'output_1', reason: 'already reflected', messageCode: 'reflect.already', params: {} },
      { taskDir: 'output_2', reason: 'no work done', messageCode: 'reflect.why_no_work', params: {}, why: 'no-work' }
    ])
    expect(b.out.stderr).toContain(progressBar(2, 2))
    expect(skillFiles(libraryDirFor(root, 'alice'))).toHaveLength(1)

    // the summary counts the already reflected by code
    const c = io()
    expect(await main(['reflect', '--root-dir', root], c.io)).toBe(0)
    expect(c.out.stdout).toMatch(/Created 0 skill\(s\); skipped 1 already reflected, 1 with no skill worth making; failed 0/)
    expect(c.out.stderr).toContain('Skipping output_1 (already reflected)')
  })

  it('uses the model from flags and the key from the environment, never printing it', async () => {
    const key = 'sk-cli-secret-0123456789abcdef'
    server = await startOpenAiServer(() => ({ status: 500, json: { error: { message: `bad ${key}` } } }))
    const root = makeRoot([{ dir: 'alice/output_1', log: CALC_LOG }])
    const a = io({ OPENAI_API_KEY: key })
    // retries exhaust quickly because the server answers at once; backoff is bounded
    const code = await main(['reflect', '--root-dir', root, '--llm', 'openai', '--base-url', server.url, '--model', 'cli-model'], a.io)
    expect(code).toBe(1)
    expect((server.requests[0]!.body as { model: string }).model).toBe('cli-model')
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${key}`)
    expect(a.out.stdout + a.out.stderr).not.toContain(key)
    expect(a.out.stdout).toContain('failed 1')
    const lib = libraryDirFor(root, 'alice')
    expect(skillFiles(lib)).toEqual([])
    for (const f of fs.readdirSync(`${lib}/logs`)) expect(fs.readFileSync(`${lib}/logs/${f}`, 'utf8')).not.toContain(key)
  }, 30_000)

  it('--decide: none for a greeting, create for a real task, in the summary', async () => {
    const root = makeRoot([
      { dir: 'dan/output_hi', log: 'Received user requirement: hello\nTASK_COMPLETED: hi🎉 Workflow completed!\n', ageSec: 5 },
      { dir: 'dan/output_calc', log: CALC_LOG }
    ])
    const a = io()
    expect(await main(['reflect', '--root-dir', root, '--decide'], a.io)).toBe(0)
    expect(a.out.stdout).toMatch(/Created 1 skill\(s\); 0 enhancement\(s\) proposed for review, 0 task\(s\) needing nothing; skipped 0 already reflected, 1 with no skill worth making/)
    expect(a.out.stdout).toContain('  – output_hi: greeting')
  })

  it('answers bad usage with exit code 2', async () => {
    const a = io()
    expect(await main(['reflect', '--root-dir', '/nonexistent', '--llm', 'claude'], a.io)).toBe(2)
    expect(await main(['reflect', '--root-dir', '/x', '--concurrency', '0'], a.io)).toBe(2)
    expect(a.out.stderr).toMatch(/--llm must be offline or openai/)
  })

  it('works with a model answer through the CLI', async () => {
    server = await startOpenAiServer(() => ({ json: chatCompletion('Calculator\n\nbody\n\nFILES_TO_BACKUP:\n\nUSAGE_CONDITIONS: calculators') }))
    const root = makeRoot([{ dir: 'output_j', log: CALC_LOG }])
    const a = io({ OPENAI_API_KEY: 'k' })
    expect(await main(['reflect', '--root-dir', root, '--llm', 'openai', '--base-url', server.url, '--model', 'm', '--concurrency', '2'], a.io)).toBe(0)
    // named from what was asked, cut at a word (issue 36)
    expect(skillFiles(libraryDirFor(root, ''))).toEqual(['skill_Write a Python.md'])
  })
})
