import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
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
