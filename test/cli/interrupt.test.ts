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

const ROOT = path.resolve(__dirname, '..', '..')

function hooks(running: boolean): { log: string[]; handler: () => void } {
  const log: string[] = []
  const handler = interruptHandler({
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

  it('a real running command prints "Cancelling…" on SIGINT and ends', async () => {
    const lib = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-sigint-'))
    try {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'mcp', '--library', lib], {
        env: { ...process.env, NODE_OPTIONS: '' },
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
      expect(stderr).not.toContain('Cancelling')
      const said = new Promise<void>((resolve) => (onStderr = () => stderr.includes('Cancelling…') && resolve()))
      child.kill('SIGINT')
      await said
      // the server stops serving once its client hangs up too
      child.stdin.end()
      expect(await closed).not.toBeNull()
      expect(stderr.match(/Cancelling…/g)).toHaveLength(1)
    } finally {
      fs.rmSync(lib, { recursive: true, force: true })
    }
  }, 60_000)
})
