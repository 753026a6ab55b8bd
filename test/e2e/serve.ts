/**
 * `skillbench serve` on a temporary copy of a data root, as the browser tests start it, without a browser: a test
 * that reads the server alone (its API, its event stream) imports this file, not harness.ts, so it runs with the
 * process tests (vitest.config.mts sorts a test by the helpers it imports; harness.ts is the browser's).
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ApiEvent } from '../../src/shared/api'

export const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface Served {
  url: string
  root: string
  configDir: string
  stop: () => Promise<void>
}

/** One Codex CLI rollout (a finished task), found by auto-detection under the test's home folder. */
function writeCodexSession(dir: string): void {
  fs.mkdirSync(dir, { recursive: true })
  const records = [
    { type: 'session_meta', payload: { id: 'e2e', cwd: '/repo' } },
    { type: 'event_msg', payload: { type: 'user_message', message: 'Set up nightly rsync backups of the photo archive with seven rotated copies' } },
    { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"rsync -a photos nas:/backup"}', call_id: 'c1' } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 0' } },
    { type: 'response_item', payload: { type: 'message', role: 'assistant', phase: 'final_answer', content: [{ type: 'output_text', text: 'Backups now run nightly.' }] } },
    { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'Backups now run nightly.' } }
  ]
  fs.writeFileSync(path.join(dir, 'rollout-2026-03-02T10-00-00-e2e.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
}

export interface ServeOptions {
  /** A data root remembered from an earlier run (copied, written into the settings file before the start). */
  rememberedRoot?: string
  /** More environment for the server (e.g. its cache folder). */
  env?: NodeJS.ProcessEnv
  /** Adds agents' session folders to the test's home folder (given its path) before the start. */
  home?: (homeDir: string) => void
  /**
   * Puts the copy at `<settings folder>/sample-data`, where `npm start` copies resources/sample-data on a first run
   * (scripts/start.cjs): the app then knows it as the bundled sample.
   */
  asSampleCopy?: boolean
  /** Writes into the settings folder (given its path) before the start: a settings file an earlier version left. */
  configure?: (configDir: string) => void
}

/** Copies `fixtureRoot` to a temp dir and runs `skillbench serve` on it; resolves with the printed URL. */
export async function serve(fixtureRoot: string, rendererDir: string, opts: ServeOptions = {}): Promise<Served & { remembered?: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-'))
  // named like the fixture, so labels read as a newcomer would see them ("alice · sample-data")
  const configDir = path.join(tmp, 'config')
  const root = opts.asSampleCopy ? path.join(configDir, 'sample-data') : path.join(tmp, path.basename(fixtureRoot))
  // agents' session folders are auto-detected under the home folder: an empty one keeps runs repeatable
  const home = path.join(tmp, 'home')
  fs.mkdirSync(configDir)
  fs.cpSync(fixtureRoot, root, { recursive: true })
  let remembered: string | undefined
  if (opts.rememberedRoot) {
    remembered = path.join(tmp, 'earlier')
    fs.cpSync(opts.rememberedRoot, remembered, { recursive: true })
    fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ version: 1, settings: { dataRoots: [fs.realpathSync(remembered)] } }))
  }
  writeCodexSession(path.join(home, '.codex', 'sessions', '2026', '03', '02'))
  opts.home?.(home)
  opts.configure?.(configDir)
  const child: ChildProcess = spawn(process.execPath, [path.join(PROJECT, 'bin', 'skillbench.cjs'), 'serve', '--port', '0', '--no-open', '--no-build', '--root-dir', root], {
    cwd: PROJECT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CONFIG_DIR: configDir, SKILLBENCH_RENDERER_DIR: rendererDir, SKILLBENCH_HOME: home, ...opts.env }
  })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 60 s. stderr:\n${stderr}`)), 60_000)
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${code}) before printing a URL:\n${stderr}`))
    })
  })
  return {
    url,
    root,
    configDir,
    remembered,
    stop: async () => {
      if (child.exitCode === null) {
        const closed = new Promise((r) => child.once('close', r))
        child.kill('SIGTERM')
        await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  }
}

/**
 * Follows the server's event stream as the page does (server-sent events at `<base>api/events`): each event's data
 * is pushed onto `events`. Resolves with the request (destroy it to stop) once the stream has answered.
 */
export function followEvents(base: string, token: string, events: ApiEvent[]): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const stream = http.get(`${base}api/events?token=${token}`, (res) => {
      let buffered = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffered += chunk
        let end: number
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const data = buffered.slice(0, end).split('\n').find((l) => l.startsWith('data:'))
          buffered = buffered.slice(end + 2)
          if (data) events.push(JSON.parse(data.slice(5)) as ApiEvent)
        }
      })
      resolve(stream)
    })
    stream.on('error', reject)
  })
}
