/**
 * Ctrl-C during `skillbench deploy` of a library of 1,500 skills into a Claude Code project folder, with real
 * processes and real SIGINTs, held at a known point by SKILLBENCH_DEPLOY_PAUSE_AT (walk 54, findings 3 and 14):
 * - twice while writing (the process quits at once, a skill's folder made and its file not yet written): the next
 *   deploy rolls the interrupted one back, the folder it made too, and every skill arrives;
 * - an empty folder of a skill's name (what an older version's rollback left) is taken as free, and said so;
 * - once while writing: the deploy stops between two files, takes back the files written (a file the user put in
 *   one of those folders meanwhile stays, with its folder), says so and exits 1;
 * - once before writing: "cancelled" and exit 1, as `sync` says it (the code `source.cancelled`).
 * The user's own folders in the target are never touched; the over-budget line is said once, and short.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')
const COUNT = 1500
const PAUSE_FILE = 200

let tmp: string
let lib: string
let env: NodeJS.ProcessEnv

const name = (i: number): string => `skill-${String(i).padStart(4, '0')}`
const skillsDir = (project: string): string => path.join(tmp, project, '.claude', 'skills')
const entries = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [])

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-deploy-ctrlc-')))
  lib = path.join(tmp, 'library')
  for (let i = 1; i <= COUNT; i++) {
    fs.mkdirSync(path.join(lib, name(i)), { recursive: true })
    fs.writeFileSync(path.join(lib, name(i), 'SKILL.md'), `---\nname: ${name(i)}\ndescription: Use when you need to do task number ${i} of the project.\n---\n\n# ${name(i)}\n\nSteps.\n`)
  }
  const home = path.join(tmp, 'home')
  fs.mkdirSync(home)
  env = { ...process.env, SKILLBENCH_HOME: home, HOME: home, NODE_OPTIONS: '' }
  delete env.SKILLBENCH_LANG
})

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

/** What the user keeps in the target: a skill of their own and an empty folder, both to stay as they are. */
function userFiles(project: string): void {
  const dir = skillsDir(project)
  fs.mkdirSync(path.join(dir, 'my-own'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'my-own', 'SKILL.md'), '---\nname: my-own\ndescription: mine\n---\n\nMine.\n')
  fs.mkdirSync(path.join(dir, 'my-empty'))
}

function expectUserFiles(project: string): void {
  const dir = skillsDir(project)
  expect(fs.readFileSync(path.join(dir, 'my-own', 'SKILL.md'), 'utf8')).toBe('---\nname: my-own\ndescription: mine\n---\n\nMine.\n')
  expect(entries(path.join(dir, 'my-own'))).toEqual(['SKILL.md'])
  expect(entries(path.join(dir, 'my-empty'))).toEqual([])
}

interface Run {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** Resolves once stderr holds `text`. */
  saw: (text: string) => Promise<void>
  done: Promise<number | null>
}

function start(args: string[], extra: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'deploy', '--library', lib, ...args], { env: { ...env, ...extra }, cwd: tmp })
  let out = ''
  let err = ''
  const waiting: { text: string; resolve: () => void }[] = []
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString()
    for (const w of waiting.filter((x) => err.includes(x.text))) w.resolve()
  })
  const done = once(child, 'close').then(([code]) => code as number | null)
  return {
    child,
    stdout: () => out,
    stderr: () => err.split('\n').filter((l) => l && !l.includes('running from source')).join('\n'),
    saw: (text) =>
      new Promise<void>((resolve, reject) => {
        if (err.includes(text)) return resolve()
        waiting.push({ text, resolve })
        void done.then(() => (err.includes(text) ? resolve() : reject(new Error(`exited before saying ${JSON.stringify(text)}: ${err}`))))
      }),
    done
  }
}

async function deployAll(project: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = start(['--to', `claude-project:${path.join(tmp, project)}`, ...args])
  const code = await r.done
  return { code, stdout: r.stdout(), stderr: r.stderr() }
}

/** A deploy held at `at` (SKILLBENCH_DEPLOY_PAUSE_AT) until the returned resume() is called. */
async function heldAt(project: string, at: string, args: string[] = []): Promise<Run & { resume: () => void }> {
  const resumeFile = path.join(tmp, `resume-${project}-${Math.random().toString(36).slice(2)}`)
  const r = start(['--to', `claude-project:${path.join(tmp, project)}`, ...args], { SKILLBENCH_DEPLOY_PAUSE_AT: at, SKILLBENCH_DEPLOY_RESUME_FILE: resumeFile })
  await r.saw(at)
  return { ...r, resume: () => fs.writeFileSync(resumeFile, '') }
}

describe('Ctrl-C twice while deploy writes', () => {
  it('the next deploy rolls it back, the folders it made too, and every skill arrives; the user\'s folders stay', async () => {
    userFiles('twice')
    const r = await heldAt('twice', `file:${PAUSE_FILE}`)
    expect(r.stderr()).toContain(`deploy paused at file:${PAUSE_FILE} (${name(PAUSE_FILE)}/SKILL.md)`)
    r.child.kill('SIGINT')
    await r.saw('Cancelling…')
    r.child.kill('SIGINT')
    expect(await r.done).toBe(130)
    // what the kill left: the files written so far, and the folder of the next one, empty
    const dir = skillsDir('twice')
    expect(entries(path.join(dir, name(PAUSE_FILE)))).toEqual([])
    expect(entries(path.join(dir, name(PAUSE_FILE - 1)))).toEqual(['SKILL.md'])
    expect(fs.existsSync(path.join(dir, '.skillbench-deploy.tx.json'))).toBe(true)

    const next = await deployAll('twice')
    expect(next.code, next.stderr).toBe(0)
    expect(next.stderr).toMatch(/an interrupted deploy into .* was rolled back; nothing of it stays there/)
    expect(next.stdout).toContain(`${COUNT} new, 0 updated, 0 removed, 0 in sync, 0 changed there (left in place), 0 left alone`)
    expect(next.stdout).not.toMatch(/^ {2}leave|did not place/m)
    for (let i = 1; i <= COUNT; i++) {
      expect(fs.readFileSync(path.join(dir, name(i), 'SKILL.md'), 'utf8')).toContain(`name: ${name(i)}`)
      expect(entries(path.join(dir, name(i)))).toEqual(['SKILL.md'])
    }
    expectUserFiles('twice')
    expect(entries(dir).filter((n) => n.startsWith('.'))).toEqual(['.skillbench-deploy.json'])
    // over the budget: one short line, said once, with a profile rather than a disable command of 1,400 names
    const budget = next.stdout.split('\n').filter((l) => l.includes('over the budget'))
    expect(budget).toHaveLength(1)
    expect(budget[0]!.length).toBeLessThan(1200)
    expect(budget[0]).toMatch(/Getting under it takes disabling \d{4} skills, least used first: skill-\d{4} \(0 uses, \d+ chars\),.* and \d{4} more \(--json lists them all\)/)
    expect(budget[0]).toContain('skillbench profile set NAME --to claude-project:')
    expect(budget[0]).not.toContain('skillbench disable')
    const again = await deployAll('twice', ['--dry-run'])
    expect(again.stdout).toContain(`0 new, 0 updated, 0 removed, ${COUNT} in sync`)
  }, 180_000)

  it('an empty folder of a skill\'s name (left by an older version) is taken as free, and said so', async () => {
    const dir = skillsDir('empty')
    fs.mkdirSync(path.join(dir, name(3)), { recursive: true })
    fs.mkdirSync(path.join(dir, name(4), 'scripts'), { recursive: true }) // only empty folders in it
    fs.mkdirSync(path.join(dir, name(5)))
    fs.writeFileSync(path.join(dir, name(5), 'notes.md'), 'the user\'s\n')
    const r = await deployAll('empty', ['--skill', name(3), '--skill', name(4), '--skill', name(5)])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`write    ${name(3)}  (+SKILL.md) — an empty folder of this name was there (an interrupted deploy can leave one): the skill is written into it`)
    expect(r.stdout).toContain(`write    ${name(4)}  (+SKILL.md) — an empty folder of this name was there`)
    expect(r.stdout).toContain(`leave    ${name(5)} — a folder of this name exists that Skillbench did not place: left as it is`)
    expect(entries(path.join(dir, name(3)))).toEqual(['SKILL.md'])
    expect(entries(path.join(dir, name(5)))).toEqual(['notes.md'])
    const json = await deployAll('empty', ['--skill', name(3), '--skill', name(4), '--skill', name(5), '--dry-run', '--json'])
    const skills = (JSON.parse(json.stdout) as { skills: { name: string; action: string }[] }).skills
    expect(skills.map((s) => [s.name, s.action])).toEqual([
      [name(3), 'unchanged'],
      [name(4), 'unchanged'],
      [name(5), 'unmanaged']
    ])
  }, 60_000)
})

describe('Ctrl-C once', () => {
  it('while writing: stops between two files, takes back what it wrote (not a file the user added), says so, exits 1', async () => {
    userFiles('once')
    const r = await heldAt('once', `file:${PAUSE_FILE}`)
    const dir = skillsDir('once')
    // the user adds a file of theirs to a folder this deploy made
    fs.writeFileSync(path.join(dir, name(150), 'my-notes.md'), 'mine\n')
    r.child.kill('SIGINT')
    await r.saw('Cancelling…')
    r.resume()
    expect(await r.done).toBe(1)
    expect(r.stderr()).toContain(`skillbench deploy: cancelled: stopped after ${PAUSE_FILE} of ${COUNT} files and took them back; nothing of this deploy stays in ${dir}`)
    expect(r.stdout()).toBe('')
    expect(entries(dir)).toEqual(['my-empty', 'my-own', name(150)])
    expect(entries(path.join(dir, name(150)))).toEqual(['my-notes.md'])
    expectUserFiles('once')

    // in Chinese, and by code with --json
    const zh = await heldAt('once', `file:${PAUSE_FILE}`, ['--lang', 'zh', '--json'])
    zh.child.kill('SIGINT')
    await zh.saw('正在取消…')
    zh.resume()
    expect(await zh.done).toBe(1)
    expect(zh.stderr()).toContain(`skillbench deploy: 已取消：写入 ${COUNT - 1} 个文件中的 ${PAUSE_FILE} 个后停止，并已撤回这些文件；此次部署没有在 ${dir} 中留下任何内容`)
    const failure = JSON.parse(zh.stdout()) as { message_code: string; params: Record<string, unknown> }
    expect(failure.message_code).toBe('deploy.cancelled_taken_back')
    expect(failure.params).toMatchObject({ done: PAUSE_FILE, total: COUNT - 1, dir })
    expect(entries(dir)).toEqual(['my-empty', 'my-own', name(150)])

    // a deploy afterwards: every skill but the one whose folder holds the user's file
    const next = await deployAll('once')
    expect(next.code, next.stderr).toBe(0)
    expect(next.stderr).toBe('')
    expect(next.stdout).toContain(`${COUNT - 1} new, 0 updated, 0 removed, 0 in sync, 0 changed there (left in place), 1 left alone`)
    expect(entries(path.join(dir, name(150)))).toEqual(['my-notes.md'])
    expect(entries(path.join(dir, name(PAUSE_FILE)))).toEqual(['SKILL.md'])
  }, 180_000)

  it('before writing: "cancelled" and exit 1, as sync says it, and nothing is written', async () => {
    const r = await heldAt('before', 'planned', ['--json'])
    r.child.kill('SIGINT')
    await r.saw('Cancelling…')
    r.resume()
    expect(await r.done).toBe(1)
    expect(r.stderr().split('\n').at(-1)).toBe('skillbench deploy: cancelled')
    expect(r.stderr()).not.toContain('aborted')
    const failure = JSON.parse(r.stdout()) as { message_code: string; message: string }
    expect([failure.message_code, failure.message]).toEqual(['source.cancelled', 'cancelled'])
    expect(entries(skillsDir('before'))).toEqual([])
  }, 60_000)
})
