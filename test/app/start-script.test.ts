import { spawn, spawnSync } from 'node:child_process'
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
    const root = tempDir('agents-root')
    const argv = await electronArgs(['--root-dir', root], tempDir('start-config'))
    expect(argv).toEqual([PROJECT, '--root-dir', root])
    expect(rootDirFromArgs(argv, '/elsewhere')).toBe(root)
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

describe('npm start -- --root-dir a folder that cannot be opened', () => {
  /** Runs start.cjs to its end (Electron present as a stand-in that records being started, or no display: web mode). */
  function start(args: string[], electron: boolean): { code: number | null; stdout: string; stderr: string; started: boolean } {
    const dir = tempDir('start-wrong')
    const record = path.join(dir, 'started')
    const fake = path.join(dir, 'electron')
    fs.writeFileSync(fake, `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(record)}, 'yes')\n`, { mode: 0o755 })
    const r = spawnSync(process.execPath, [path.join(PROJECT, 'scripts', 'start.cjs'), '--no-open', '--port', '0', ...args], {
      cwd: PROJECT,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        SKILLBENCH_LANG: '',
        SKILLBENCH_CONFIG_DIR: path.join(dir, 'config'),
        SKILLBENCH_SKIP_BUILD: '1',
        ...(electron ? { SKILLBENCH_ELECTRON_BINARY: fake, DISPLAY: ':99' } : { DISPLAY: '' })
      }
    })
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, started: fs.existsSync(record) }
  }

  it('a folder that is not there: one clear line, exit 1, no URL, nothing started (web mode or the app)', () => {
    const gone = path.join(tempDir('start-gone'), 'nope')
    for (const electron of [false, true]) {
      const r = start(['--root-dir', gone], electron)
      expect(r.code, r.stderr).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(`npm start: folder not found: ${gone} (--root-dir names the agents' data root to open)\n`)
      expect(r.started).toBe(false)
    }
  })

  it('the bundled sample data itself: refused, naming its writable copy', () => {
    const r = start([`--root-dir=${path.join(PROJECT, 'resources', 'sample-data', 'alice')}`], true)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^npm start: .*resources\/sample-data\/alice is in the sample data bundled with Skillbench, which is never changed: open its writable copy .*config\/sample-data\/alice instead/)
    expect(r.started).toBe(false)
  })
})
