/**
 * `skillbench use --json` tells why a learned skill cannot be matched by code beside its unchanged words: each
 * rejected trigger pattern (`rejected[]`: the guard's regex.* problem, regex.timeout for one cut off) and each
 * skill it cannot use (`errors[]`: learned.no_trigger_pattern, a file that does not load by its format code).
 * Real learned-skill files in a temp `.sman/skills`; the words people read on stderr are the same.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { runCli, snapshot, tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

// polynomial: passes the static check, never finishes on a long question (as in regex-guard.test.ts)
const SLOW = '^' + '.*'.repeat(9) + 'x$'

function learned(id: string, name: string, lines: string): string {
  return `id: ${id}\nname: ${name}\ndescription: ${name}\n${lines}`
}

function skillsDir(): string {
  const dir = path.join(tempDir('use-coded'), '.sman', 'skills')
  dirs.push(path.dirname(path.dirname(dir)))
  fs.mkdirSync(dir, { recursive: true })
  const files: Record<string, string> = {
    'auth.yaml': learned('s_auth', 'Login', 'trigger_pattern: "login|auth"\nsteps:\n  - order: 1\n    action: read_file\n'),
    'evil.yaml': learned('s_evil', 'Evil', 'trigger_pattern: "^(a+)+$"\nsteps: []\n'),
    'broken.yaml': learned('s_broken', 'Broken', 'trigger_pattern: "login(("\nsteps: []\n'),
    'slow.yaml': learned('s_slow', 'Slow', `trigger_pattern: "${SLOW}"\nsteps: []\n`),
    'steps-only.yaml': learned('s_steps', 'Steps only', 'steps:\n  - order: 1\n    action: run_tests\n'),
    'alias.yaml': 'id: a\nname: &n x\ntrigger_pattern: *n\n'
  }
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text)
  return dir
}

interface Coded {
  reason: string
  messageCode: string
  params: Record<string, unknown>
}

describe('use --json: rejected patterns and unusable skills by code', () => {
  it('each with its words as before, its code and params beside them, and Chinese by code', async () => {
    const dir = skillsDir()
    const before = snapshot(dir)
    const question = 'Please login: ' + 'b'.repeat(3000)
    // a generous bound: the slow pattern never finishes, the others take microseconds
    const r = await runCli(['use', question, '--dir', dir, '--timeout-ms', '250', '--json'])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { matches: { id: string }[]; rejected: (Coded & { id: string; path: string })[]; errors: (Coded & { path: string })[] }
    expect(out.matches.map((m) => m.id)).toEqual(['s_auth'])

    const rejected = Object.fromEntries(out.rejected.map((x) => [x.path, x]))
    expect(Object.keys(rejected).sort()).toEqual(['broken.yaml', 'evil.yaml', 'slow.yaml'])
    expect(rejected['evil.yaml']).toMatchObject({
      id: 's_evil',
      reason: 'nested quantifier: the group "(a+)" repeats something that already repeats (catastrophic backtracking)',
      messageCode: 'regex.nested_quantifier',
      params: { group: '(a+)' }
    })
    expect(rejected['broken.yaml']).toMatchObject({ reason: 'invalid regular expression: Unterminated group', messageCode: 'regex.invalid', params: { why: 'Unterminated group' } })
    expect(rejected['slow.yaml']).toMatchObject({
      reason: `matching the pattern ${JSON.stringify(SLOW)} took longer than 250 ms (catastrophic backtracking?); pattern rejected`,
      messageCode: 'regex.timeout',
      params: { pattern: JSON.stringify(SLOW), ms: 250 }
    })

    const errors = Object.fromEntries(out.errors.map((e) => [e.path, e]))
    expect(errors['steps-only.yaml']).toEqual({ path: 'steps-only.yaml', reason: 'no trigger_pattern: the skill can never match', messageCode: 'learned.no_trigger_pattern', params: {} })
    expect(errors['alias.yaml']).toMatchObject({ reason: 'YAML skill is not valid YAML: YAML anchors (&name) are not allowed', messageCode: 'format.yaml_invalid' })

    // the code renders the same English, and reads in Chinese
    for (const x of [...out.rejected, ...out.errors]) expect(englishText(x as unknown as MessageRef), x.path).toBe(x.reason)
    const zh = (x: Coded): string => translateMessage(x, x.reason, 'zh')
    expect(zh(errors['steps-only.yaml']!)).toBe('没有 trigger_pattern：这个技能永远不会被匹配')
    expect(zh(rejected['slow.yaml']!)).toBe(`匹配模式 ${JSON.stringify(SLOW)} 超过了 250 毫秒（灾难性回溯？）；已拒绝该模式`)
    expect(zh(rejected['evil.yaml']!)).toBe('嵌套量词：分组“(a+)”重复了本身已在重复的内容（灾难性回溯）')
    expect(snapshot(dir)).toEqual(before)
  })

  it('without --json, people read the same words on stderr', async () => {
    const dir = skillsDir()
    const r = await runCli(['use', 'how do I login?', '--dir', dir])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('skillbench use: steps-only.yaml: no trigger_pattern: the skill can never match\n')
    expect(r.stderr).toContain('skillbench use: evil.yaml: trigger_pattern "^(a+)+$" rejected: nested quantifier: the group "(a+)" repeats something that already repeats (catastrophic backtracking)\n')
  })
})
