/**
 * `list` / `query` with the data root given as --library (the folder a newcomer has at hand) answered "0 skill(s)"
 * and "the skill library is empty", no more. They now say on stderr that it is a data root and how to address one
 * of its users' libraries; stdout, --json and exit 0 as before. On a copy of the bundled sample data root.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { tempDir } from '../store/helpers'

const SAMPLE = path.resolve(__dirname, '..', '..', 'resources', 'sample-data')
let root: string

beforeEach(() => {
  root = path.join(tempDir('sb-empty-lib-'), 'data')
  fs.cpSync(SAMPLE, root, { recursive: true })
})

afterEach(() => {
  fs.rmSync(path.dirname(root), { recursive: true, force: true })
})

/** The CLI in-process (test/formats/helpers runCli) with this file's folder and environment. */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { SKILLBENCH_CACHE_DIR: path.join(path.dirname(root), 'cache'), SKILLBENCH_SEARCH_SERVER: 'off' }
  return runCli(argv, root, env)
}

const ROOT_HINT = (cmd: string, dir: string): string =>
  `skillbench ${cmd}: no skills in ${dir}: it is a data root, whose libraries are its users' (alice, bob): address one with --root-dir ${dir} --user NAME\n`

describe('a library that lists nothing', () => {
  it('the data root as --library: list and query say so, with --root-dir DIR --user NAME; output as before', async () => {
    const list = await run('list', '--library', root)
    expect(list).toEqual({ code: 0, stdout: '0 skill(s), 0 unreadable file(s)\n', stderr: ROOT_HINT('list', root) })
    const json = await run('list', '--library', root, '--json')
    expect(JSON.parse(json.stdout)).toEqual({ skills: [], errors: [], warnings: [] })
    expect(json.stderr).toBe(ROOT_HINT('list', root))
    const query = await run('query', 'python calculator', '--library', root, '--json')
    expect(query.code).toBe(0)
    expect(JSON.parse(query.stdout)).toMatchObject({ status: 'success', skills_count: 0, message_code: 'tool.found_none' })
    expect(query.stderr).toBe(ROOT_HINT('query', root))
    // the way it says works
    const alice = await run('list', '--root-dir', root, '--user', 'alice')
    expect(alice.stdout.split('\n')[0]).toBe('4 skill(s), 0 unreadable file(s)')
    expect(alice.stderr).toBe('')
  })

  it('an empty folder says what a library holds; a library whose skills are all retired says nothing (--legacy shows them)', async () => {
    const empty = path.join(path.dirname(root), 'empty')
    fs.mkdirSync(empty)
    expect((await run('list', '--library', empty)).stderr).toBe(`skillbench list: no skills in ${empty}: a library holds skill_*.md files (AGIAgent) or SKILL.md folders\n`)
    const bob = path.join(root, 'bob', 'general', 'experience')
    const [only] = fs.readdirSync(bob).filter((f) => f.endsWith('.md'))
    expect((await run('delete', fs.readFileSync(path.join(bob, only!), 'utf8').match(/skill_id: '?(\d+)/)![1]!, '--library', bob)).code).toBe(0)
    const retired = await run('list', '--library', bob)
    expect(retired.stdout.split('\n')[0]).toBe('0 skill(s), 0 unreadable file(s)')
    expect(retired.stderr).toBe('')
    expect(translateMessage({ messageCode: 'library.is_data_root', params: { path: '/d', users: 'alice, bob' } }, '', 'zh')).toBe(
      '/d 中没有技能：这是一个数据根目录，技能库属于其中的用户（alice, bob）：请用 --root-dir /d --user NAME 指定其中一个'
    )
  })

  it('a SKILL.md library whose skills are all retired (to .skillbench/legacy/) says nothing either; an empty legacy folder is not retired skills', async () => {
    const lib = path.join(path.dirname(root), 'skill-md')
    for (const name of ['pdf-reader', 'csv-tools']) {
      fs.mkdirSync(path.join(lib, name), { recursive: true })
      fs.writeFileSync(path.join(lib, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Works with ${name} files. Use when the user asks about them.\n---\n\n# ${name}\n`)
    }
    const listed = JSON.parse((await run('list', '--library', lib, '--json')).stdout) as { skills: Array<{ skill_id: string }> }
    expect(listed.skills).toHaveLength(2)
    for (const s of listed.skills) expect((await run('delete', s.skill_id, '--library', lib)).code).toBe(0)
    expect(fs.readdirSync(path.join(lib, '.skillbench', 'legacy')).sort()).toEqual(['csv-tools', 'pdf-reader'])
    const list = await run('list', '--library', lib)
    expect(list).toEqual({ code: 0, stdout: '0 skill(s), 0 unreadable file(s)\n', stderr: '' })
    expect((await run('query', 'pdf', '--library', lib)).stderr).toBe('')
    expect((await run('list', '--library', lib, '--legacy', '--json')).stdout).toContain('pdf-reader')

    // a legacy/ or .skillbench/legacy/ folder with nothing in it holds no retired skill: the folder is empty, said so
    const bare = path.join(path.dirname(root), 'bare')
    fs.mkdirSync(path.join(bare, 'legacy'), { recursive: true })
    fs.mkdirSync(path.join(bare, '.skillbench', 'legacy'), { recursive: true })
    expect((await run('list', '--library', bare)).stderr).toBe(`skillbench list: no skills in ${bare}: a library holds skill_*.md files (AGIAgent) or SKILL.md folders\n`)
  })
})
