/**
 * `profile set NAME --skill brainstormin` kept the typo and every deploy of the profile then took nothing, without a
 * word. A selector that takes no skill of the library now is said on stderr, with the name, tag or collection meant
 * when one is close; it is still kept as given (a skill or a tag may come later). On a copy of the SKILL.md fixtures.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { copyTree, tempDir } from '../store/helpers'

const SKILL_MD = path.resolve(__dirname, '..', 'fixtures', 'formats', 'skill-md')
let dir: string

beforeEach(() => {
  dir = copyTree(SKILL_MD)
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The CLI in-process (test/formats/helpers runCli) with this file's folder and environment. */
function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = tempDir('sb-profile-home-')
  return runCli(argv, dir, { HOME: home })
}

describe('profile set with selectors that take nothing', () => {
  it('each is said (the one meant when close), kept as given; the answer and exit as before', async () => {
    const r = await run('profile', 'set', 'ops', '--to', 'claude', '--skill', 'log-analysys', '--skill', 'collection:tool', '--skill', 'zzz-nothing', '--except', 'tag:slow', '--library', dir)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Profile ops → claude (skills: log-analysys, collection:tool, zzz-nothing; except: tag:slow). Deploy it with: skillbench deploy --profile ops\n')
    expect(r.stderr).toBe(
      [
        'skillbench profile: profile ops: log-analysys takes no skill of this library now: did you mean log-analysis? (kept as given)',
        'skillbench profile: profile ops: collection:tool takes no skill of this library now: did you mean collection:tools? (kept as given)',
        'skillbench profile: profile ops: zzz-nothing takes no skill of this library now (kept; `skillbench list` shows the names)',
        'skillbench profile: profile ops: tag:slow takes no skill of this library now (kept; `skillbench list` shows the names)',
        ''
      ].join('\n')
    )
    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'deploy-profiles.json'), 'utf8'))
    expect(saved.profiles.ops).toMatchObject({ targets: ['claude'], skills: ['log-analysys', 'collection:tool', 'zzz-nothing'], except: ['tag:slow'] })
    expect(translateMessage({ messageCode: 'deploy.selector_meant', params: { profile: 'ops', selector: 'log-analysys', meant: 'log-analysis' } }, '', 'zh')).toBe(
      '配置 ops：log-analysys 目前不匹配本技能库中的任何技能：是不是想写 log-analysis？（已按原样保留）'
    )
  })

  it('selectors that take skills are not mentioned, in --json neither', async () => {
    const r = await run('profile', 'set', 'ops', '--to', 'claude', '--skill', 'log-analysis', '--skill', 'collection:tools', '--library', dir, '--json')
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout).profiles.ops.skills).toEqual(['log-analysis', 'collection:tools'])
  })
})
