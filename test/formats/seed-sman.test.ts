// Seed 004's learned skills (sman) through `skillbench use` and import: Java/Kotlin inline flags, the examples
// fallback, each rejected pattern once, no internal bookkeeping in any output, steps as a plan.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { matchExamples } from '../../src/main/formats/matcher'
import { checkPattern } from '../../src/main/formats/regex-guard'
import { FIXTURES, copyToTemp, runCli, tempDir } from './helpers'

function smanDir(): string {
  const dir = copyToTemp(path.join(FIXTURES, 'learned'), 'sman')
  fs.writeFileSync(path.join(dir, 'redis_cache.yaml'), 'id: skill_redis\nname: Redis 缓存排查\ndescription: 排查缓存击穿\ntrigger_pattern: "(?i)redis|缓存"\nsteps:\n  - order: 1\n    action: grep_file\n    params:\n      pattern: "RedisTemplate"\nexamples:\n  - "缓存为什么没命中？"\n')
  return dir
}

describe('seed 004: learned skills through use', () => {
  it('accepts Java/Kotlin inline flags and still refuses catastrophic shapes behind them', async () => {
    const dir = smanDir()
    const r = await runCli(['use', 'Why is REDIS slow?', '--dir', dir, '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).matches.map((m: { id: string; matched: string; via: string }) => [m.id, m.matched, m.via])).toEqual([['skill_redis', 'REDIS', 'pattern']])
    expect(JSON.parse((await runCli(['use', '缓存怎么预热', '--dir', dir, '--json'])).stdout).matches[0].id).toBe('skill_redis')
    for (const p of ['(?i)redis|缓存', '(?is)a.b', '(?i:foo)bar', '(?x) re dis # comment']) expect(checkPattern(p).ok, p).toBe(true)
    const dotAll = checkPattern('(?is)a.b')
    expect(dotAll.ok && dotAll.regex.test('A\nB')).toBe(true)
    // The guard reads what runs: inline flags do not hide a nested quantifier.
    expect(checkPattern('(?i)(a+)+$')).toMatchObject({ ok: false, reason: expect.stringMatching(/^nested quantifier/) })
    expect(checkPattern('(?i:(a|a)*)')).toMatchObject({ ok: false })
  })

  it('falls back to the examples when no pattern matches: 怎么做用户登录？ finds 用户认证流程', async () => {
    const dir = smanDir()
    const r = await runCli(['use', '怎么做用户登录？', '--dir', dir, '--json'])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.matches.map((m: { name: string; via: string; matched: string }) => [m.name, m.via, m.matched])).toEqual([['用户认证流程', 'example', '如何实现用户登录？']])
    const human = await runCli(['use', '怎么做用户登录？', '--dir', dir])
    expect(human.stdout).toContain('用户认证流程  (user_auth_flow.yaml, confidence 0.95; no pattern matched; like the example "如何实现用户登录？"')
    // Questions about something else find nothing: no example says nearly what they say.
    for (const q of ['怎么做数据库迁移？', '认证', 'how do I bake bread?', '用户']) {
      expect((await runCli(['use', q, '--dir', dir, '--json'])).code, q).toBe(1)
    }
    expect(matchExamples('how do I log a user in', [{ id: 'a', name: 'auth', trigger_pattern: 'x', examples: ['How do I log a user in with JWT?'] }])).toHaveLength(1)
  })

  it('prints each rejected pattern once, in words, and --json keeps them in the JSON only', async () => {
    const dir = smanDir()
    const r = await runCli(['use', 'nothing matches this', '--dir', dir])
    expect(r.code).toBe(1)
    const lines = r.stderr.trim().split('\n')
    expect(lines).toEqual([
      'skillbench use: broken_regex.yaml: trigger_pattern "login((" rejected: invalid regular expression: Unterminated group',
      'skillbench use: evil_backtracking.yaml: trigger_pattern "^(a+)+$" rejected: nested quantifier: the group "(a+)" repeats something that already repeats (catastrophic backtracking)'
    ])
    const j = await runCli(['use', 'nothing matches this', '--dir', dir, '--json'])
    expect(j.stderr).toBe('')
    expect(JSON.parse(j.stdout).rejected).toHaveLength(2)
  })

  it('renders the steps as an ordered plan with placeholders named, and never shows extra.__absent', async () => {
    const dir = smanDir()
    // Steps written out of order still come back in order.
    const text = fs.readFileSync(path.join(dir, 'user_auth_flow.yaml'), 'utf8')
    fs.writeFileSync(path.join(dir, 'user_auth_flow.yaml'), text.replace('  - order: 1\n', '  - order: 4\n    action: summarize\n  - order: 1\n'))
    const r = await runCli(['use', 'login', '--dir', dir, '--json'])
    expect(r.stdout).not.toContain('__absent')
    const m = JSON.parse(r.stdout).matches[0]
    expect(m.plan.map((s: { order: number; action: string }) => `${s.order} ${s.action}`)).toEqual(['1 grep_file', '2 read_file', '3 call_chain', '4 summarize'])
    expect(m.plan[1].placeholders).toEqual([{ placeholder: '{{result.file}}', name: 'result.file', param: 'path', from_step: 1 }])
    expect(m.plan[1].instruction).toBe('Call read_file with path="{{result.file}}". {{result.file}} is the file from step 1\'s result.')
    expect(m.steps[0]).toEqual({ order: 4, action: 'summarize' }) // the steps as written
    // Imported into a SKILL.md library: the metadata holds the steps as written, and they come back.
    const lib = path.join(tempDir('sman-lib'), 'lib')
    expect((await runCli(['import', '--from', path.join(dir, 'user_auth_flow.yaml'), '--library', lib])).code).toBe(0)
    const md = fs.readFileSync(path.join(lib, 'yong-hu-ren-zheng-liu-cheng', 'SKILL.md') /* named in pinyin (issue 36) */, 'utf8')
    expect(md).not.toContain('__absent')
    expect(md).not.toContain('expectedResult')
    const out = tempDir('sman-out')
    expect((await runCli(['export', '--to', 'learned-yaml', '--library', lib, '--out', out])).code).toBe(0)
    const back = await runCli(['use', 'login', '--dir', out, '--json'])
    expect(JSON.parse(back.stdout).matches[0].steps).toEqual(m.steps)
    expect(fs.readFileSync(path.join(out, 'skill_001.yaml'), 'utf8')).not.toContain('expectedResult')
  })
})
