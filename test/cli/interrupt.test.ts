/**
 * Ctrl-C in the CLI: "Cancelling…" only while a command runs (issue 37). The rule is checked on its own, and a
 * real running command (`skillbench mcp`, waiting on stdin) is interrupted with a real SIGINT.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CANCELLING_TEXT, interruptHandler } from '../../src/main/cli/interrupt'
import { wordsFor } from '../../src/main/cli/lang'

const ROOT = path.resolve(__dirname, '..', '..')

function hooks(running: boolean, words?: Parameters<typeof interruptHandler>[0]['words']): { log: string[]; handler: () => void } {
  const log: string[] = []
  const handler = interruptHandler({
    ...(words ? { words } : {}),
    running: () => running,
    abort: () => log.push('abort'),
    write: (t) => log.push(`write ${t}`),
    exit: (code) => log.push(`exit ${code}`)
  })
  return { log, handler }
}

describe('Ctrl-C', () => {
  it('when nothing runs, quits at once and says nothing', () => {
    const { log, handler } = hooks(false)
    handler()
    expect(log).toEqual(['exit 130'])
  })

  it('while a command runs, cancels it and says so; a second press quits', () => {
    const { log, handler } = hooks(true)
    handler()
    expect(log).toEqual([`write ${CANCELLING_TEXT}`, 'abort'])
    handler()
    expect(log).toEqual([`write ${CANCELLING_TEXT}`, 'abort', 'exit 130'])
  })

  it('says it in the language of the run (--lang zh), the same English without', async () => {
    expect(CANCELLING_TEXT).toBe('\nCancelling… (press Ctrl-C again to quit now)\n')
    const zh = await wordsFor('zh')
    const { log, handler } = hooks(true, () => zh)
    handler()
    expect(log).toEqual(['write \n正在取消…（再按一次 Ctrl-C 立即退出）\n', 'abort'])
    const notYet = hooks(true, () => undefined)
    notYet.handler()
    expect(notYet.log).toEqual([`write ${CANCELLING_TEXT}`, 'abort'])
  })

  it('a real running command prints "Cancelling…" on SIGINT and ends', async () => {
    const stderr = await interrupted([], 'Cancelling…')
    expect(stderr.match(/Cancelling…/g)).toHaveLength(1)
  }, 60_000)

  it('a real run under --lang zh says it in Chinese', async () => {
    const stderr = await interrupted(['--lang', 'zh'], '正在取消…')
    expect(stderr).toContain('\n正在取消…（再按一次 Ctrl-C 立即退出）\n')
    expect(stderr).not.toContain('Cancelling')
  }, 60_000)

  it("reads the run's language by the command's option table: a --lang word that is an option's value leaves it English", async () => {
    // mcp's --workspace takes the word after it, `--lang=zh`, as its value (the run is in English): "Cancelling…" was
    // said in Chinese, read without the table
    // (waited for by what both languages say, so the old reading fails here rather than by a timeout)
    const english = await interrupted([], 'Ctrl-C', ['--workspace', '--lang=zh'])
    expect(english).toContain('\nCancelling… (press Ctrl-C again to quit now)\n')
    expect(english).not.toContain('正在取消')
    // the CLI's --lang before the command's name still says it in Chinese beside such a value
    expect(await interrupted(['--lang', 'zh'], '正在取消…', ['--workspace', '--lang=zh'])).toContain('\n正在取消…（再按一次 Ctrl-C 立即退出）\n')
  }, 120_000)
})

/** `skillbench [lead…] mcp --library LIB [trail…]` (waiting on stdin), interrupted once it answers: its stderr once `said` is on it and it ended. */
async function interrupted(lead: string[], said: string, trail: string[] = []): Promise<string> {
  const lib = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-sigint-'))
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...lead, 'mcp', '--library', lib, ...trail], {
      env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_LANG: '' },
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stderr = ''
    let onStderr = (): void => {}
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      onStderr()
    })
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    // it runs once it has answered a request
    const answered = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) + '\n')
    await answered
    expect(stderr).not.toContain(said)
    const heard = new Promise<void>((resolve) => (onStderr = () => stderr.includes(said) && resolve()))
    child.kill('SIGINT')
    await heard
    // the server stops serving once its client hangs up too
    child.stdin.end()
    expect(await closed).not.toBeNull()
    return stderr
  } finally {
    fs.rmSync(lib, { recursive: true, force: true })
  }
}
