/**
 * Local git repositories for tests: a work tree that commits and pushes to a bare repository served as a
 * `file://` URL (no network). Git runs with a throw-away HOME and no system config, so the machine's own
 * git settings never leak in.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface TestRepo {
  dir: string
  bare: string
  url: string
  work: string
  env: NodeJS.ProcessEnv
  /** Writes files (content, or `{ link }` for a symbolic link, `{ bytes, mode }`), removes `null` ones, commits, pushes; returns the commit. */
  commit(files: Record<string, FileSpec | null>, message?: string): string
  git(...args: string[]): string
  cleanup(): void
}

export type FileSpec = string | { link: string } | { bytes: Buffer; mode?: number } | { text: string; mode: number }

export function gitEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.org',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.org',
    GIT_TERMINAL_PROMPT: '0'
  }
}

export function makeRepo(prefix = 'sb-repo-'): TestRepo {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  const home = path.join(dir, 'home')
  fs.mkdirSync(home)
  const env = gitEnv(home)
  const work = path.join(dir, 'work')
  const bare = path.join(dir, 'repo.git')
  const run = (cwd: string, args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  run(dir, ['init', '-q', '-b', 'main', work])
  run(dir, ['init', '-q', '--bare', '-b', 'main', bare])
  run(work, ['remote', 'add', 'origin', bare])
  return {
    dir,
    bare,
    url: `file://${bare}`,
    work,
    env,
    git: (...args) => run(work, args),
    commit(files, message = 'change') {
      for (const [rel, spec] of Object.entries(files)) {
        const abs = path.join(work, rel)
        if (spec === null) {
          fs.rmSync(abs, { force: true, recursive: true })
          continue
        }
        fs.mkdirSync(path.dirname(abs), { recursive: true })
        fs.rmSync(abs, { force: true })
        if (typeof spec === 'string') fs.writeFileSync(abs, spec)
        else if ('link' in spec) fs.symlinkSync(spec.link, abs)
        else if ('bytes' in spec) fs.writeFileSync(abs, spec.bytes, { mode: spec.mode ?? 0o644 })
        else fs.writeFileSync(abs, spec.text, { mode: spec.mode })
        if (typeof spec === 'object' && 'mode' in spec && spec.mode !== undefined) fs.chmodSync(abs, spec.mode)
      }
      run(work, ['add', '-A'])
      run(work, ['commit', '-q', '--allow-empty', '-m', message])
      run(work, ['push', '-q', 'origin', 'HEAD:main'])
      return run(work, ['rev-parse', 'HEAD']).trim()
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** A SKILL.md text. */
export function skillMd(name: string, description: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`
}
