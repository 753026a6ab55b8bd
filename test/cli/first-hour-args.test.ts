/**
 * What a newcomer types in the first hour, read kindly: a value that starts with a dash (a Markdown bullet), a
 * typo in an option or a command name. On a copy of the fixture library, through the CLI's own entry.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { joinDashValues } from '../../src/main/cli/arg-words'
import { closestName } from '../../src/shared/closest-name'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { copyTree, FIXTURE_LIBRARY, tempDir } from '../store/helpers'

let dir: string

beforeEach(() => {
  dir = copyTree(FIXTURE_LIBRARY)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The CLI in-process (test/formats/helpers runCli) with this file's folder and environment. */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(argv, dir, {})
}

const fileOf = (id: string): string => {
  const name = fs.readdirSync(dir).find((f) => f.endsWith('.md') && fs.readFileSync(path.join(dir, f), 'utf8').includes(`skill_id: '${id}'`))
  return path.join(dir, name ?? `no file for ${id}`)
}

describe('a value that starts with a dash', () => {
  it('edit --text "- a bullet" appends the bullet (parseArgs alone refused it as ambiguous)', async () => {
    const file = fileOf('1768616001')
    const r = await run('edit', '1768616001', '--mode', 'append', '--text', '- check the divisor first', '--library', dir)
    // only how to undo it (a direct edit is journaled: test/cli/direct-undo)
    expect(r.stderr).toMatch(/^Undo with: skillbench undo \S+\n$/)
    expect(r.code).toBe(0)
    expect(fs.readFileSync(file, 'utf8').trimEnd().endsWith('- check the divisor first')).toBe(true)
  })

  it('a forgotten value is still bad usage, saying how to give one that starts with dashes', async () => {
    const before = fs.readFileSync(fileOf('1768616001'), 'utf8')
    const r = await run('edit', '1768616001', '--mode', 'append', '--text', '--library', dir)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('skillbench edit: --text needs a value (for a value that starts with "--", write --text=VALUE)\n')
    expect(fs.readFileSync(fileOf('1768616001'), 'utf8')).toBe(before)
  })

  it('joinDashValues joins only string options of the command, and stops at --', () => {
    const opts = { text: { type: 'string' }, json: { type: 'boolean' }, top: { type: 'string' } } as const
    expect(joinDashValues(['--text', '- a', '--top', '-1', '--json'], opts)).toEqual(['--text=- a', '--top=-1', '--json'])
    expect(joinDashValues(['--json', '-x', '--text', '--json', '--', '--text', '-y'], opts)).toEqual(['--json', '-x', '--text', '--json', '--', '--text', '-y'])
  })
})

describe('typos', () => {
  it('an option typo names the option meant; an unknown one lists the options', async () => {
    const typo = await run('list', '--libary', dir)
    expect(typo.code).toBe(2)
    expect(typo.stderr).toBe('skillbench list: unknown option --libary: did you mean --library? (see --help)\n')
    const unknown = await run('list', '--colour', '--library', dir)
    expect(unknown.stderr).toBe("skillbench list: unknown option --colour (this command's options: --library, --root-dir, --user, --json, --legacy, --no-server)\n")
    expect((await run('list', '--json=yes', '--library', dir)).stderr).toBe('skillbench list: --json takes no value\n')
  })

  it('a command typo names the command meant', async () => {
    const r = await run('lst', '--library', dir)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe("skillbench: unknown command 'lst': did you mean list? (see skillbench --help)\n")
    expect((await run('frobnicate')).stderr).toBe("skillbench: unknown command 'frobnicate' (see skillbench --help)\n")
    expect(closestName('qurey', ['query', 'rate', 'reject'])).toBe('query')
    expect(closestName('x', ['query', 'rate'])).toBeUndefined()
  })
})

describe('a mistyped deploy target', () => {
  it('--to clade is refused naming claude (it made a folder "clade" in the current one); ./clade and an existing folder deploy there', async () => {
    const here = tempDir('sb-deploy-cwd-')
    const at = (...argv: string[]) => runCli(argv, here, { HOME: here })
    const typo = await at('deploy', '--library', dir, '--to', 'clade', '--dry-run', '--json')
    expect(typo.code).toBe(1)
    expect(typo.stderr).toBe('skillbench deploy: unknown target "clade": did you mean claude? (a new folder of that name is written ./clade)\n')
    expect(JSON.parse(typo.stdout).params.reason).toEqual({ messageCode: 'deploy.target_typo', params: { target: '"clade"', meant: 'claude', folder: './clade' } })
    expect(translateMessage(JSON.parse(typo.stdout).params.reason, '', 'zh')).toBe('未知的部署目标 "clade"：是不是想用 claude？（要新建同名文件夹，请写 ./clade）')
    const folder = await at('deploy', '--library', dir, '--to', './clade', '--dry-run')
    expect(folder.code).toBe(0)
    expect(folder.stdout).toContain(`Would deploy to ${path.join(here, 'clade')}`)
    fs.mkdirSync(path.join(here, 'codes'))
    expect((await at('deploy', '--library', dir, '--to', 'codes', '--dry-run')).stdout).toContain(`Would deploy to ${path.join(here, 'codes')}`)
    expect((await at('deploy', '--library', dir, '--to', 'skills', '--dry-run')).stdout).toContain(`Would deploy to ${path.join(here, 'skills')}`)
    expect(fs.readdirSync(here)).toEqual(['codes'])
  })
})
