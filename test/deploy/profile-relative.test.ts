/**
 * A deploy profile lives in the library's shared deploy-profiles.json: a target with a relative path would name a
 * different folder from every folder `deploy` runs in (walk 54, finding 12). `profile set` refuses it by code (en
 * and zh) and says the absolute path it names from here; `~/` stays allowed (expanded per user). A profile written
 * by hand with a relative target is refused by `deploy --profile` and `profile show` the same way, and nothing is
 * deployed. Real processes, real files.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { absoluteTargetSpec, relativeTargetPath } from '../../src/main/deploy/targets'
import { setDeployProfile } from '../../src/main/deploy/selection-service'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let lib: string
let work: string
let env: NodeJS.ProcessEnv

function cli(args: string[], cwd = work): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...args], { cwd, env, encoding: 'utf8' })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.split('\n').filter((l) => l && !l.includes('running from source')).join('\n') }
}

const configFile = (): string => path.join(lib, 'deploy-profiles.json')

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-profile-rel-')))
  lib = path.join(tmp, 'library')
  work = path.join(tmp, 'work')
  fs.mkdirSync(path.join(lib, 'deploy-runbook'), { recursive: true })
  fs.writeFileSync(path.join(lib, 'deploy-runbook', 'SKILL.md'), '---\nname: deploy-runbook\ndescription: Use when deploying.\n---\n\nSteps.\n')
  fs.mkdirSync(work)
  const home = path.join(tmp, 'home')
  fs.mkdirSync(home)
  env = { ...process.env, SKILLBENCH_HOME: home, HOME: home, NODE_OPTIONS: '' }
  delete env.SKILLBENCH_LANG
})

afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('relative targets in profiles', () => {
  it('which targets are relative, and what they name from a folder (pure)', () => {
    for (const t of ['claude-project:./api', 'claude-project:api', 'agents:../x', 'gemini-project: sub/dir', 'opencode-project:.', './out', 'out/skills']) expect(relativeTargetPath(t), t).not.toBeNull()
    for (const t of ['claude', 'codex', 'gemini', 'opencode', 'claude-project:/srv/api', 'claude-project:~/api', 'agents:~', '/srv/skills', '~/skills', 'cursor:/x', 'claude-project:']) expect(relativeTargetPath(t), t).toBeNull()
    expect(absoluteTargetSpec('claude-project:./api', '/tmp/w')).toBe('claude-project:/tmp/w/api')
    expect(absoluteTargetSpec('out/skills', '/tmp/w')).toBe('/tmp/w/out/skills')
  })

  it('profile set refuses one by code (en, zh, --json), suggesting the absolute path; nothing is written', () => {
    const r = cli(['profile', 'set', 'rel', '--to', 'claude-project:./api', '--skill', 'deploy-runbook', '--library', lib])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `skillbench profile: profile rel: target "claude-project:./api" is a relative path, which would be read from whatever folder deploy runs in (deploy-profiles.json is shared with the team): give an absolute path, such as claude-project:${work}/api, or one under your home folder (~/…)`
    )
    expect(fs.existsSync(configFile())).toBe(false)
    const zh = cli(['profile', 'set', 'rel', '--to', 'sub/skills', '--library', lib, '--lang', 'zh', '--json'])
    expect(zh.code).toBe(1)
    expect(zh.stderr).toBe(`skillbench profile: 方案 rel：目标 "sub/skills" 是相对路径，会相对于运行 deploy 时所在的文件夹来解析（deploy-profiles.json 由团队共享）：请写绝对路径（例如 ${work}/sub/skills），或主目录下的路径（~/…）`)
    expect(JSON.parse(zh.stdout)).toMatchObject({ status: 'error', message_code: 'deploy.profile_relative_target', params: { name: 'rel', target: '"sub/skills"', absolute: `${work}/sub/skills` } })
    expect(fs.existsSync(configFile())).toBe(false)
    // the same through the core the app uses
    return expect(setDeployProfile(lib, 'rel', { targets: ['codex', 'agents:api'], skills: [], except: [] }, { env, cwd: work })).rejects.toMatchObject({ messageCode: 'deploy.profile_relative_target' })
  })

  it('absolute and ~/ targets are kept as given; the help says why', () => {
    const ok = cli(['profile', 'set', 'home', '--to', 'claude-project:~/api', '--to', `agents:${tmp}/repo`, '--skill', 'deploy-runbook', '--library', lib])
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.home.targets).toEqual(['claude-project:~/api', `agents:${tmp}/repo`])
    expect(cli(['profile', '--help']).stdout).toContain('A target folder is an absolute path or one under ~/')
  })

  it('a profile written by hand with a relative target: deploy --profile and profile show refuse it, nothing is deployed', () => {
    fs.writeFileSync(configFile(), JSON.stringify({ version: 1, profiles: { rel: { targets: ['claude-project:./api'], skills: ['deploy-runbook'], except: [] } }, disabled: {} }) + '\n')
    const d = cli(['deploy', '--profile', 'rel', '--library', lib])
    expect(d.code).toBe(1)
    expect(d.stderr).toContain(`skillbench deploy: profile rel: target "claude-project:./api" is a relative path`)
    expect(d.stderr).toContain(`such as claude-project:${work}/api`)
    expect(fs.existsSync(path.join(work, 'api'))).toBe(false)
    const s = cli(['profile', 'show', 'rel', '--library', lib])
    expect(s.code).toBe(1)
    expect(s.stderr).toContain('is a relative path')
    // naming the target on the command line is the person's own choice, from where they are
    const given = cli(['deploy', '--profile', 'rel', '--to', 'claude-project:./api', '--library', lib])
    expect(given.code, given.stderr).toBe(0)
    expect(fs.existsSync(path.join(work, 'api', '.claude', 'skills', 'deploy-runbook', 'SKILL.md'))).toBe(true)
  })
})
