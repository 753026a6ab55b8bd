import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { rootDirFromArgs } from '../../src/main/app/launch-args'
import { tempDir } from '../workbench/helpers'

const PROJECT = path.resolve(__dirname, '../..')

describe('npm start (scripts/start.cjs)', () => {
  it('says in one line that Electron cannot start, then serves web mode on a copy of the sample data root', async () => {
    const configDir = tempDir('start-config')
    const child = spawn(process.execPath, [path.join(PROJECT, 'scripts', 'start.cjs'), '--no-open', '--port', '0'], {
      cwd: PROJECT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CONFIG_DIR: configDir, SKILLBENCH_SKIP_BUILD: '1', DISPLAY: '' }
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in 120 s; stderr: ${stderr}`)), 120_000)
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString()
          const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        })
        child.on('close', (code) => reject(new Error(`start exited (${code}): ${stderr}`)))
      })
      const fallback = stderr.split('\n').filter((l) => l.startsWith('Electron could not start here'))
      expect(fallback.length).toBe(1)
      expect(fallback[0]).toMatch(/starting web mode instead\.$/)
      expect(stderr).not.toMatch(/Downloading Electron binary|TypeError|at .*\.js:\d+/)
      // the sample root is copied to the settings dir (the repository stays clean) and added as the data root
      const copy = path.join(configDir, 'sample-data')
      expect(fs.existsSync(path.join(copy, 'alice', 'general', 'experience'))).toBe(true)
      const token = new URL(url).searchParams.get('token')!
      const res = await fetch(new URL('/api/roots.list', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-skillbench-token': token },
        body: '{}'
      })
      const roots = (await res.json()) as { path: string; users: string[] }[]
      expect(roots.map((r) => r.path)).toEqual([fs.realpathSync(copy)])
      expect(roots[0]!.users).toEqual(['alice', 'bob'])
    } finally {
      child.kill('SIGTERM')
    }
  })
})

describe('npm start with Electron present (a stand-in binary that records its arguments)', () => {
  /** Runs start.cjs with a fake Electron; returns the arguments it was started with. */
  async function electronArgs(args: string[], configDir: string): Promise<string[]> {
    const dir = tempDir('fake-electron')
    const record = path.join(dir, 'argv.json')
    const fake = path.join(dir, 'electron')
    fs.writeFileSync(fake, `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)))\n`, { mode: 0o755 })
    const child = spawn(process.execPath, [path.join(PROJECT, 'scripts', 'start.cjs'), ...args], {
      cwd: PROJECT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CONFIG_DIR: configDir, SKILLBENCH_SKIP_BUILD: '1', SKILLBENCH_ELECTRON_BINARY: fake, DISPLAY: ':99' }
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code, stderr).toBe(0)
    expect(stderr).not.toMatch(/web mode/)
    return JSON.parse(fs.readFileSync(record, 'utf8')) as string[]
  }

  it('passes --root-dir DIR on to the app, which opens there', async () => {
    const argv = await electronArgs(['--root-dir', '/data/agents'], tempDir('start-config'))
    expect(argv).toEqual([PROJECT, '--root-dir', '/data/agents'])
    expect(rootDirFromArgs(argv, '/elsewhere')).toBe('/data/agents')
  })

  it('opens the copy of the sample root on a first run, as web mode does', async () => {
    const configDir = tempDir('start-config')
    const argv = await electronArgs([], configDir)
    expect(argv).toEqual([PROJECT, '--root-dir', path.join(configDir, 'sample-data')])
    expect(fs.existsSync(path.join(configDir, 'sample-data', 'alice', 'general', 'experience'))).toBe(true)
  })
})

describe('rootDirFromArgs (the app reading what it was asked to open)', () => {
  it('takes --root-dir DIR and --root-dir=DIR, relative to the working folder; the last one wins', () => {
    expect(rootDirFromArgs(['/app', '--root-dir', 'data'], '/home/me')).toBe('/home/me/data')
    expect(rootDirFromArgs(['/app', '--root-dir=/srv/a', '--root-dir', '/srv/b'], '/')).toBe('/srv/b')
  })
  it('ignores a flag without a value and Chromium switches', () => {
    expect(rootDirFromArgs(['/app', '--root-dir'], '/')).toBeUndefined()
    expect(rootDirFromArgs(['/app', '--root-dir', '--no-sandbox'], '/')).toBeUndefined()
    expect(rootDirFromArgs(['/app', '--root-dir=', '--enable-logging'], '/')).toBeUndefined()
  })
})
