/**
 * What a hostile run found in deploy, each failing before its fix: a forged intent in the agent's folder (naming a
 * user's file with its real hash, or a `../` path) is set aside and never acted on; a tampered manifest that claims
 * a user's folder does not get it removed; temp files left by killed deploys are swept by the next one.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deploy } from '../../src/main/deploy/run'
import { INTENT_FILE, MANIFEST_FILE } from '../../src/main/deploy/manifest'
import { RECOVERY_LOG_REL } from '../../src/main/review/recovery-log'
import { libraryProblems } from '../../src/main/workbench/library-problems'
import { translateLine } from '../../src/renderer/i18n/messages-errors'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let lib: string
let target: string

const skillText = (name: string): string => `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is asked for.\n---\n\n# ${name}\n\nSteps for ${name}.\n`
const MINE = '---\nname: mine\ndescription: The user wrote this one by hand.\n---\n\nMine, not Skillbench\'s.\n'
const sha = (b: string | Buffer): string => crypto.createHash('sha256').update(b).digest('hex')

function writeSkill(name: string): void {
  fs.mkdirSync(path.join(lib, name), { recursive: true })
  fs.writeFileSync(path.join(lib, name, 'SKILL.md'), skillText(name))
}

const run = (): ReturnType<typeof deploy> => deploy({ library: lib, to: target, cwd: tmp, env: { HOME: tmp }, by: 'test' })

function tempsUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name))
      else if (e.name.startsWith('.skillbench-tmp-')) out.push(path.relative(dir, path.join(d, e.name)))
    }
  }
  walk(dir)
  return out
}

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-deploy-hostile-')))
  lib = path.join(tmp, 'library')
  target = path.join(tmp, 'agent-skills')
  writeSkill('csv-tool')
  writeSkill('pdf')
  fs.mkdirSync(path.join(target, 'mine'), { recursive: true })
  fs.writeFileSync(path.join(target, 'mine', 'SKILL.md'), MINE)
})

afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('deploy under attack', () => {
  it('a forged intent naming a user file with its real hash is set aside, and the file stays', async () => {
    const forged = { id: 'forged-1', library: fs.realpathSync(lib), ops: [{ rel: 'mine/SKILL.md', before: null, after: sha(MINE) }], manifest: { before: null, after: null } }
    fs.writeFileSync(path.join(target, INTENT_FILE), JSON.stringify(forged))
    const r = await run()
    expect(fs.readFileSync(path.join(target, 'mine', 'SKILL.md'), 'utf8')).toBe(MINE)
    expect(r.warnings.join('\n')).toMatch(/was not written by a deploy from .*: it was not acted on and was moved to \.skillbench-deploy\.tx\.rejected-/)
    expect(fs.existsSync(path.join(target, INTENT_FILE))).toBe(false)
    const aside = fs.readdirSync(target).filter((n) => n.startsWith('.skillbench-deploy.tx.rejected-'))
    expect(aside).toHaveLength(1)
    expect(JSON.parse(fs.readFileSync(path.join(target, aside[0]!), 'utf8'))).toEqual(forged) // kept for the person to read
    expect(r.counts.written).toBe(2)
  })

  it('an intent set aside is kept in the deploying library\'s recovery log, never in the library the intent names (nothing vouches for it)', async () => {
    const other = path.join(tmp, 'other-library')
    fs.mkdirSync(other)
    const forged = { id: 'forged-2', library: fs.realpathSync(other), ops: [{ rel: 'mine/SKILL.md', before: null, after: sha(MINE) }], manifest: { before: null, after: null } }
    fs.writeFileSync(path.join(target, INTENT_FILE), JSON.stringify(forged))
    const r = await run()
    const note = r.warnings.find((w) => /not acted on/.test(w))!
    const name = fs.readdirSync(target).find((n) => n.startsWith('.skillbench-deploy.tx.rejected-'))!
    expect(note).toBe(`${path.join(fs.realpathSync(target), INTENT_FILE)} was not written by a deploy from ${fs.realpathSync(other)} (that library keeps no copy of it): it was not acted on and was moved to ${name}`)
    const log = fs.readFileSync(path.join(lib, RECOVERY_LOG_REL), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(log).toHaveLength(1)
    const line = log[0].lines[0]
    expect(line).toEqual({
      message: note,
      messageCode: 'deploy.recover_set_aside',
      params: { path: path.join(fs.realpathSync(target), INTENT_FILE), why: { messageCode: 'deploy.intent_not_vouched', params: { library: fs.realpathSync(other) } }, name }
    })
    expect(translateLine(line, note, 'zh')).toBe(`${path.join(fs.realpathSync(target), INTENT_FILE)} 不是从 ${fs.realpathSync(other)} 部署时写下的（该技能库没有保存它的副本）：未据此执行任何操作，已移到 ${name}`)
    expect((await libraryProblems(fs.realpathSync(lib))).problems.map((p) => p.messageCode)).toEqual(['deploy.recover_set_aside'])
    expect(fs.readdirSync(other)).toEqual([])
  })

  it('an intent with a ../ path is set aside with the reason, and later deploys work', async () => {
    const outside = path.join(tmp, 'outside.txt')
    fs.writeFileSync(outside, 'keep me')
    fs.writeFileSync(path.join(target, INTENT_FILE), JSON.stringify({ id: 'x', library: fs.realpathSync(lib), ops: [{ rel: '../outside.txt', before: null, after: sha('keep me') }], manifest: { before: null, after: null } }))
    const r = await run()
    expect(r.warnings.join('\n')).toMatch(/names a path outside the target's skill folders \("\.\.\/outside\.txt"\)/)
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me')
    const again = await run()
    expect(again.warnings).toEqual([])
    expect(again.skills.map((s) => s.action)).toEqual(['unchanged', 'unchanged'])
  })

  it('an intent whose folders to remove include a ../ path is set aside, and the empty folder outside stays', async () => {
    fs.mkdirSync(path.join(tmp, 'outside-empty'))
    fs.writeFileSync(path.join(target, INTENT_FILE), JSON.stringify({ id: 'x', library: fs.realpathSync(lib), ops: [], manifest: { before: null, after: null }, dirs: ['pdf', '../outside-empty'] }))
    const r = await run()
    expect(r.warnings.join('\n')).toMatch(/names a path outside the target's skill folders \("\.\.\/outside-empty"\)/)
    expect(fs.existsSync(path.join(tmp, 'outside-empty'))).toBe(true)
  })

  it('a garbage intent is set aside, not deleted', async () => {
    fs.writeFileSync(path.join(target, INTENT_FILE), '{"id": 1')
    const r = await run()
    expect(r.warnings.join('\n')).toMatch(/is not valid JSON: it was not acted on/)
    expect(fs.readdirSync(target).some((n) => n.startsWith('.skillbench-deploy.tx.rejected-'))).toBe(true)
  })

  it('a tampered manifest that claims a user folder does not get it removed', async () => {
    await run()
    const manifestPath = path.join(target, MANIFEST_FILE)
    const m = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { skills: Record<string, unknown> }
    m.skills.mine = { library: fs.realpathSync(lib), skill_id: 'gone-skill', title: 'mine', source: 'mine/SKILL.md', files: { 'SKILL.md': sha(MINE) }, deployed_at: '2026-01-01T00:00:00.000Z' }
    fs.writeFileSync(manifestPath, JSON.stringify(m))
    const r = await run()
    expect(fs.readFileSync(path.join(target, 'mine', 'SKILL.md'), 'utf8')).toBe(MINE)
    expect(r.counts.removed).toBe(0)
    expect(r.skills.find((s) => s.name === 'mine')).toEqual(expect.objectContaining({ action: 'unmanaged', why: 'unproven' }))
    // a skill the library did deploy and then retired is still removed: its bytes are in the library's store
    fs.renameSync(path.join(lib, 'pdf'), path.join(tmp, 'pdf-elsewhere'))
    const retired = await run()
    expect(retired.skills.find((s) => s.name === 'pdf')!.action).toBe('remove')
    expect(fs.existsSync(path.join(target, 'pdf'))).toBe(false)
  })

  it('a copy adopted without a write (changed there the same way) stays provably ours and is removed when retired', async () => {
    await run()
    const edited = skillText('pdf') + 'Also OCR scanned pages.\n'
    fs.writeFileSync(path.join(lib, 'pdf', 'SKILL.md'), edited)
    fs.writeFileSync(path.join(target, 'pdf', 'SKILL.md'), edited)
    const adopted = await run()
    expect(adopted.skills.find((s) => s.name === 'pdf')).toEqual(expect.objectContaining({ action: 'adopt', why: 'same-change' }))
    fs.renameSync(path.join(lib, 'pdf'), path.join(tmp, 'pdf-elsewhere'))
    const retired = await run()
    expect(retired.skills.find((s) => s.name === 'pdf')!.action).toBe('remove')
    expect(fs.existsSync(path.join(target, 'pdf'))).toBe(false)
  })

  it('temp files of killed deploys are swept by the next deploy; a live writer\'s are kept', async () => {
    for (let i = 0; i < 60; i++) writeSkill(`skill-${String(i).padStart(2, '0')}`)
    const bin = path.join(ROOT, 'bin', 'skillbench.cjs')
    const env = { ...process.env, HOME: tmp, NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache'), SKILLBENCH_CONFIG_DIR: path.join(tmp, 'config') }
    let killedMidway = 0
    for (let round = 0; round < 6; round++) {
      // a different library text each round, so every round has files to write
      for (let i = 0; i < 60; i++) fs.appendFileSync(path.join(lib, `skill-${String(i).padStart(2, '0')}`, 'SKILL.md'), `round ${round}\n`)
      const child = spawn(process.execPath, [bin, 'deploy', '--library', lib, '--to', target, '--json'], { env, stdio: 'ignore' })
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          // kill as soon as the deploy has started writing the target (its lock or intent is there)
          if (fs.existsSync(path.join(target, '.skillbench-deploy.lock')) || fs.existsSync(path.join(target, INTENT_FILE))) {
            clearInterval(timer)
            killedMidway++
            setTimeout(() => child.kill('SIGKILL'), round * 15)
          }
        }, 2)
        child.on('exit', () => {
          clearInterval(timer)
          resolve()
        })
      })
    }
    expect(killedMidway).toBeGreaterThan(0)
    // leftovers a crash could leave, made certain: a dead writer's temp in the target and in a placed folder
    fs.writeFileSync(path.join(target, '.skillbench-tmp-999999-deadbeef.tmp'), 'half')
    fs.mkdirSync(path.join(target, 'csv-tool'), { recursive: true })
    fs.writeFileSync(path.join(target, 'csv-tool', '.skillbench-tmp-999998-deadbeef.tmp'), 'half')
    // a live process's temp file (pid 1 is always alive) is never taken from under it
    fs.writeFileSync(path.join(target, '.skillbench-tmp-1-cafe.tmp'), 'busy')
    const r = await run()
    expect(r.warnings.filter((w) => !/budget/.test(w))).toEqual(r.warnings.filter((w) => /rolled back|not acted on/.test(w)))
    expect(tempsUnder(target)).toEqual(['.skillbench-tmp-1-cafe.tmp'])
    expect(fs.readFileSync(path.join(target, 'mine', 'SKILL.md'), 'utf8')).toBe(MINE)
    for (let i = 0; i < 60; i++) {
      const name = `skill-${String(i).padStart(2, '0')}`
      expect(fs.readFileSync(path.join(target, name, 'SKILL.md'), 'utf8')).toContain('round 5')
    }
  }, 120_000)
})
