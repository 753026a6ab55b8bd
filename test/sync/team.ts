/**
 * A team for sync tests: a bare repository on disk and machines, each a clone with its own config and cache
 * folders and its own git identity. Git runs with a throw-away HOME and no system config.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openLibrary, type SkillLibrary } from '../../src/main/store/library'
import { createSkillTools, type SkillTools } from '../../src/main/tools/skill-tools'

export const BIN = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')

export interface Machine {
  name: string
  lib: string
  env: NodeJS.ProcessEnv
  git(...args: string[]): string
  open(): Promise<SkillLibrary>
  tools(): Promise<SkillTools>
  /** `skillbench sync --library LIB --json` as its own process. */
  sync(extra?: string[]): { code: number; json: { committed: number; pulled: number; pushed: number; conflicts: Array<{ skill_id: string; proposal_id: string }> } | null; stderr: string; stdout: string }
  /** The same, started and left running (for kill tests). */
  syncChild(extraEnv?: NodeJS.ProcessEnv): ReturnType<typeof spawn>
  read(rel: string): string
}

export interface Team {
  dir: string
  bare: string
  url: string
  machine(name: string): Machine
  cleanup(): void
}

export function makeTeam(prefix = 'sb-sync-'): Team {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  const bare = path.join(dir, 'team.git')
  const baseEnv = (home: string, name: string): NodeJS.ProcessEnv => ({
    ...process.env,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name.toLowerCase()}@example.org`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name.toLowerCase()}@example.org`,
    GIT_TERMINAL_PROMPT: '0',
    SKILLBENCH_CONFIG_DIR: path.join(home, 'config'),
    SKILLBENCH_CACHE_DIR: path.join(home, 'cache')
    // No SKILLBENCH_FROM_SOURCE: bin/skillbench.cjs runs the build when it is current (as `npm test` makes it) and
    // the sources through tsx otherwise, so a sync never runs stale code; tsx costs ~1 s more per sync.
  })
  spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare], { env: baseEnv(dir, 'Admin') })
  return {
    dir,
    bare,
    url: `file://${bare}`,
    machine(name) {
      const home = path.join(dir, `home-${name}`)
      fs.mkdirSync(path.join(home, 'config'), { recursive: true })
      const env = baseEnv(home, name)
      const lib = path.join(dir, `lib-${name}`)
      fs.mkdirSync(lib, { recursive: true })
      const run = (cwd: string, args: string[]): string => {
        const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' })
        if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
        return r.stdout
      }
      const m: Machine = {
        name,
        lib,
        env,
        git: (...args) => run(fs.existsSync(lib) ? lib : dir, args),
        open: () => openLibrary(lib),
        tools: async () => createSkillTools(await openLibrary(lib)),
        sync(extra = []) {
          const r = spawnSync(process.execPath, [BIN, 'sync', '--library', lib, '--json', ...extra], { env, encoding: 'utf8', timeout: 120_000 })
          let json: ReturnType<Machine['sync']>['json']
          try {
            json = JSON.parse(r.stdout)
          } catch {
            json = null
          }
          return { code: r.status ?? -1, json, stderr: r.stderr, stdout: r.stdout }
        },
        syncChild(extraEnv = {}) {
          return spawn(process.execPath, [BIN, 'sync', '--library', lib, '--json'], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] })
        },
        read: (rel) => fs.readFileSync(path.join(lib, rel), 'utf8')
      }
      return m
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Every file of a library that sync shares (the local `.skillbench` state and `.git` left out), path → text. */
export function sharedFiles(lib: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(lib, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (r === '.git' || (r.startsWith('.skillbench/') && !r.startsWith('.skillbench/team')) ) continue
      if (e.isDirectory()) walk(r)
      else out.set(r, fs.readFileSync(path.join(lib, r), 'utf8'))
    }
  }
  walk('')
  return out
}

/** True when a text holds git-style conflict markers. */
export function hasMarkers(text: string): boolean {
  return /^(<<<<<<<|>>>>>>>) /m.test(text) || /^=======$/m.test(text)
}
