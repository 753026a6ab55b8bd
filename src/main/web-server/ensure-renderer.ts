import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { projectRoot } from './project-paths'

/** True when the renderer build is there (its index.html exists). */
export function rendererBuilt(rendererDir: string): boolean {
  return fs.existsSync(path.join(rendererDir, 'index.html'))
}

/**
 * Builds the app with `electron-vite build` (main, preload, renderer) when the renderer is missing.
 * Build output goes to `log` (stderr), so stdout keeps only the URL. Resolves true on success.
 */
export async function buildRenderer(log: (text: string) => void): Promise<boolean> {
  const root = projectRoot()
  const bin = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  if (!fs.existsSync(bin)) {
    log('electron-vite is not installed: run `npm install`, then `npm run build`.\n')
    return false
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } })
    child.stdout.on('data', (d: Buffer) => log(d.toString()))
    child.stderr.on('data', (d: Buffer) => log(d.toString()))
    child.on('error', () => resolve(false))
    child.on('close', (code) => resolve(code === 0))
  })
}
