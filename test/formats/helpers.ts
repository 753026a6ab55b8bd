import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'formats')

/** A fresh temp folder. */
export function tempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `skillbench-formats-${tag}-`))
}

/** Copies a fixture folder (or a real-data folder) into a fresh temp folder and returns the copy's path. */
export function copyToTemp(from: string, tag: string): string {
  const dir = path.join(tempDir(tag), path.basename(from))
  fs.cpSync(from, dir, { recursive: true })
  return dir
}

/** Runs the CLI in-process and captures its output (`env`: the command's environment, default this process's). */
export async function runCli(args: string[], cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    cwd,
    env,
    signal: new AbortController().signal
  }
  const code = await main(args, io)
  return { code, stdout, stderr }
}

/** Every file under a folder with its bytes (for "nothing changed" checks). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) out[path.relative(dir, p)] = fs.readFileSync(p).toString('base64')
    }
  }
  walk(dir)
  return out
}

/**
 * Runs `fn` as a user a chmod 000 file stops: as it is, or, when the tests run as root (which reads anything), with
 * the effective uid of nobody (65534) for the call, root again after it. The folders it reads must be 0755.
 */
export async function withoutRoot<T>(fn: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0 || !process.seteuid) return fn()
  process.seteuid(65534)
  try {
    return await fn()
  } finally {
    process.seteuid(0)
  }
}
