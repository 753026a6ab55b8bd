import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fromAgiAgent, parseAgiAgent, serializeAgiAgent, toAgiAgent, validateAgiAgent } from '../../src/main/formats/agiagent'
import { fromLearnedYaml, parseLearnedYaml, toLearnedYaml, validateLearnedYaml } from '../../src/main/formats/learned-yaml'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { buildAvailableSkillsText, fromMasConfig, parseMasConfig, toMasConfig, validateMasConfig } from '../../src/main/formats/mas-config'
import { FormatError, emptySkill } from '../../src/main/formats/model'
import { parseYamlSafe } from '../../src/main/formats/safe-yaml'
import { cutDescription, fromSkillMd, parseSkillMd, serializeSkillMd, slugifySkillName, toSkillMd, uniqueSkillName, validateSkillMd } from '../../src/main/formats/skill-md'
import { FIXTURES } from './helpers'

const read = (...p: string[]): string => fs.readFileSync(path.join(FIXTURES, ...p), 'utf8')

describe('learned-skill YAML (seed 004)', () => {
  const record = parseLearnedYaml(read('learned', 'user_auth_flow.yaml'))
  const skill = fromLearnedYaml(record)

  it('reads every field of the seed example', () => {
    expect(skill).toMatchObject({
      learned_id: 'skill_001',
      title: '用户认证流程',
      description: '标准的 JWT 用户认证流程，包含登录、验证、刷新',
      trigger_pattern: '用户.*认证|login|auth',
      confidence: 0.95,
      tags: ['认证', '安全', 'JWT'],
      examples: ['如何实现用户登录？', '认证流程是怎么走的？'],
      learned_created_at: 1767225600000,
      source_files: ['src/main/kotlin/AuthController.kt']
    })
    expect(skill.steps?.map((s) => [s.order, s.action, s.params])).toEqual([
      [1, 'grep_file', { pattern: 'fun login|fun authenticate', scope: '**/*Controller*' }],
      [2, 'read_file', { path: '{{result.file}}' }],
      [3, 'call_chain', { method: 'login' }]
    ])
    expect(skill.body).toContain('1. `grep_file`')
    expect(skill.extra).toEqual({})
  })

  it('writes back exactly the same data (no carrier for a clean file)', () => {
    expect(toLearnedYaml(skill).data).toEqual(record.data)
  })

  it('validates: the seed example is clean; bad regex, catastrophic regex, bad steps are named', () => {
    expect(validateLearnedYaml(record)).toEqual([])
    const texts = (problems: { text: string }[]): string[] => problems.map((p) => p.text)
    const broken = validateLearnedYaml(parseLearnedYaml(read('learned', 'broken_regex.yaml')))
    expect(texts(broken)).toEqual([expect.stringMatching(/^trigger_pattern: invalid regular expression/)])
    expect(broken[0]!.messageCode).toBe('learned.pattern')
    expect(broken[0]!.params.reason).toMatchObject({ messageCode: 'regex.invalid' })
    const evil = validateLearnedYaml(parseLearnedYaml(read('learned', 'evil_backtracking.yaml')))
    expect(texts(evil)).toEqual([expect.stringMatching(/^trigger_pattern: nested quantifier/)])
    expect(evil[0]!.params.reason).toMatchObject({ messageCode: 'regex.nested_quantifier' })
    const bad = parseLearnedYaml('id: x\nname: y\ntrigger_pattern: z\nconfidence: 2\nsteps:\n  - order: one\n    params: [1]\n')
    const problems = validateLearnedYaml(bad)
    expect(texts(problems)).toEqual([
      'confidence must be a number between 0 and 1',
      'steps[0].order must be a whole number',
      'steps[0].action must be a tool name',
      'steps[0].params must be a mapping'
    ])
    expect(problems.map((p) => p.messageCode)).toEqual(['learned.confidence', 'learned.step_order', 'learned.step_action', 'agiagent.not_mapping'])
    expect(problems.map((p) => translateMessage(p, p.text, 'zh'))).toEqual(['confidence 必须是 0 到 1 之间的数字', 'steps[0].order 必须是整数', 'steps[0].action 必须是工具名', 'steps[0].params 必须是映射'])
  })

  it('keeps steps it cannot type (and unknown keys) verbatim', () => {
    const rec = parseLearnedYaml('id: x\nname: y\ntrigger_pattern: z\nsteps: [oops]\nowner: team-a\n')
    const s = fromLearnedYaml(rec)
    expect(s.extra['learned-yaml']).toEqual({ owner: 'team-a', steps: ['oops'] })
    expect(toLearnedYaml(s).data).toEqual(rec.data)
  })
})

describe('MAS skill configs (seed 002)', () => {
  const planning = parseMasConfig(read('mas', 'planning_config.yaml'))
  const reflection = parseMasConfig(read('mas', 'reflection_config.yaml'))

  it('maps use_guide / use_prompt to the model and back', () => {
    const s = fromMasConfig(planning)
    expect(s).toMatchObject({ name: 'planning', title: 'planning', description: '将任务拆解为有序的步骤计划' })
    expect(s.body).toMatch(/^你是一个规划专家/)
    expect(s.return_format).toContain('<planning>')
    expect(toMasConfig(s).data).toEqual(planning.data)
    const r = fromMasConfig(reflection)
    expect(r.extra['mas-config']).toEqual({ use_prompt: { temperature: 0.2 } })
    expect(toMasConfig(r).data).toEqual(reflection.data)
  })

  it('validates with the file name', () => {
    expect(validateMasConfig(planning, 'planning')).toEqual([])
    expect(validateMasConfig(planning, 'plan').map((p) => p.text)).toEqual(['skill_name "planning" does not match the file name "plan_config.yaml"'])
    // by code too: the app and `validate --json` read the code, not the words
    expect(validateMasConfig(planning, 'plan')[0]).toMatchObject({ messageCode: 'masconfig.file_name', params: { name: 'planning', file: 'plan' } })
    expect(validateMasConfig(parseMasConfig(read('mas', 'broken_config.yaml')), 'broken').map((p) => p.text)).toEqual([
      'use_guide.description must be a non-empty string',
      'use_prompt is missing or not a mapping (needs skill_name, skill_prompt and return_format)'
    ])
  })

  it('assembles the available-skills text from use_guide entries', () => {
    expect(buildAvailableSkillsText([reflection, planning, planning], [{ skill_name: 'read_file', description: 'Read a file' }])).toBe(
      [
        'Available skills:',
        '- planning: 将任务拆解为有序的步骤计划',
        "- reflection: Review the last step's result and record lessons in persistent memory",
        '',
        'Available tools:',
        '- read_file: Read a file',
        ''
      ].join('\n')
    )
    expect(buildAvailableSkillsText([])).toBe('Available skills:\n- (none)\n')
  })
})

describe('AGIAgent skill_*.md', () => {
  const text = read('agiagent', 'skill_Python计算器项目开发.md')
  const record = parseAgiAgent(text)

  it('reads the upstream front matter and validates it', () => {
    const s = fromAgiAgent(record)
    expect(s).toMatchObject({ skill_id: '1768615161', title: 'Python计算器项目开发', quality_index: 0.65, fetch_count: 3, task_directories: ['output_calculator_project'] })
    expect(s.body).toMatch(/^任务成功完成/)
    expect(validateAgiAgent(record)).toEqual([])
    expect(toAgiAgent(s).frontMatter).toEqual(record.frontMatter)
  })

  it('names what is wrong in a bad front matter as the store reads it: an id it refuses is an error, values read by default warnings', () => {
    const badId = parseAgiAgent("---\nskill_id: abc\ntitle: x\n---\n\nbody")
    expect(validateAgiAgent(badId).map((p) => [p.level, p.messageCode, p.message])).toEqual([['error', 'parse.invalid_skill_id', 'invalid skill_id "abc" (1–20 digits expected)']])
    const bad = parseAgiAgent("---\nskill_id: '1700000000'\ntitle: ''\nquality_index: 3\nfetch_count: -1\ntask_directories: x\ncreated_at: yesterday\n---\n\nbody")
    expect(validateAgiAgent(bad, 'skill_x.md').map((p) => [p.level, p.messageCode])).toEqual([
      ['warning', 'field.empty'],
      ['warning', 'field.quality_range'],
      ['warning', 'field.fetch_count'],
      ['warning', 'field.task_dirs'],
      ['warning', 'field.not_date']
    ])
    expect(validateAgiAgent(bad, 'skill_x.md').map((p) => p.message)).toEqual([
      'title is empty; read as "x"',
      'quality_index must be a number between 0 and 1, got 3; read as 3',
      'fetch_count must be a whole number ≥ 0, got -1; read as 0',
      'task_directories must be a list of folder names, got "x"; read as ["x"]',
      'created_at is not an ISO-8601 date: "yesterday"'
    ])
  })

  it('refuses code front matter and hostile YAML with a FormatError', () => {
    expect(() => parseAgiAgent('---js\nrequire("child_process")\n---\n')).toThrow(FormatError)
    expect(() => parseAgiAgent('---\na: &x [1]\nb: *x\n---\n')).toThrow(/aliases|anchors/)
    expect(() => parseLearnedYaml('a: &x [1]\nb: *x\n')).toThrow(/not valid YAML/)
    expect(() => parseYamlSafe('__proto__: {polluted: true}\n')).toThrow(/__proto__/)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('Agent Skills SKILL.md', () => {
  it('validates the rules with clear messages', () => {
    const rec = parseSkillMd('---\nname: My_Skill\ndescription: ""\nrequires: [x]\nallowed-tools: [Read]\nmetadata: {version: 2}\ncompatibility: ""\n---\n\nbody\n')
    expect(validateSkillMd(rec, { dirName: 'my-skill' }).map((p) => `${p.level}: ${p.message}`)).toEqual([
      'error: name "My_Skill" is not kebab-case: use only lowercase letters, digits and single hyphens, not at the start or end (e.g. "my-skill")',
      'error: name "My_Skill" must match its folder name "my-skill"',
      'error: description is empty',
      'error: compatibility must be a string of 1–500 characters',
      'error: allowed-tools must be a space-delimited string of tool names',
      'warning: metadata.version is not a string (the spec expects string values)',
      'error: unexpected top-level key "requires" (allowed: name, description, license, compatibility, allowed-tools, metadata); move it under metadata'
    ])
    expect(validateSkillMd(parseSkillMd('---\nname: a--b\ndescription: x\n---\n'))[0]?.message).toMatch(/not kebab-case/)
    expect(validateSkillMd(parseSkillMd(`---\nname: ${'a'.repeat(65)}\ndescription: x\n---\n`))[0]?.message).toBe('name must be 1–64 characters, it has 65')
    // each finding carries its code (error-codes.ts), so install and deploy match on it, not on the words
    expect(validateSkillMd(parseSkillMd(`---\nname: ${'a'.repeat(65)}\ndescription: x\n---\n`))[0]).toMatchObject({ messageCode: 'skillmd.name_length', params: { max: 64, n: 65 } })
  })

  it('slugifies names to kebab-case ≤ 64 and suffixes collisions', () => {
    expect(slugifySkillName('Lemon Squeezy Automation')).toBe('lemon-squeezy-automation')
    expect(slugifySkillName('zoho_books-automation')).toBe('zoho-books-automation')
    expect(slugifySkillName('Crème brûlée -- notes!')).toBe('creme-brulee-notes')
    // issue 36: a Chinese title reads in pinyin, with its Latin words kept, not `skill-<id>` or `python`
    expect(slugifySkillName('任务成功完成', '1768615161')).toBe('ren-wu-cheng-gong-wan-cheng')
    expect(slugifySkillName('用Python写一个快速排序')).toBe('yong-python-xie-yi-ge-kuai-su-pai-xu')
    expect(slugifySkillName('绿色')).toBe('lv-se')
    expect(slugifySkillName('？！', '1768615161')).toBe('skill-1768615161')
    expect(slugifySkillName('把一个很长很长的中文标题转换成拼音之后它的长度会超过六十四个字符的限制')).toMatch(/^ba-yi-ge-hen-chang[a-z-]*[a-z]$/)
    expect(slugifySkillName('把一个很长很长的中文标题转换成拼音之后它的长度会超过六十四个字符的限制').length).toBeLessThanOrEqual(64)
    expect(slugifySkillName('x'.repeat(100))).toHaveLength(64)
    const taken = new Set<string>()
    const long = 'a'.repeat(64)
    expect([uniqueSkillName('pdf', taken), uniqueSkillName('pdf', taken), uniqueSkillName(long, taken), uniqueSkillName(long, taken)]).toEqual(['pdf', 'pdf-2', long, 'a'.repeat(62) + '-2'])
  })

  it('cuts a long description to 1024 and keeps the full text in the body, then restores it', () => {
    const full = 'Use this skill when '.repeat(80).trim()
    const s = { ...emptySkill('Long one', 'Body text.\n', full), name: 'long-one' }
    const rec = toSkillMd(s)
    const desc = rec.frontMatter.description as string
    expect(desc.length).toBeLessThanOrEqual(1024)
    expect(desc).toBe(cutDescription(full))
    expect(rec.body).toContain(full)
    expect(rec.body.startsWith('Body text.\n')).toBe(true)
    expect(validateSkillMd(rec, { dirName: 'long-one' })).toEqual([])
    const back = fromSkillMd(parseSkillMd(serializeSkillMd(rec)))
    expect(back.description).toBe(full)
    expect(back.body).toBe('Body text.\n')
  })

  it('puts our bookkeeping under metadata.skillbench, never at the top level', () => {
    const agi = fromAgiAgent(parseAgiAgent(read('agiagent', 'skill_Python计算器项目开发.md')))
    const rec = toSkillMd(agi)
    expect(Object.keys(rec.frontMatter)).toEqual(['name', 'description', 'metadata'])
    expect(rec.frontMatter.name).toBe('python-ji-suan-qi-xiang-mu-kai-fa')
    expect(rec.frontMatter.description).toBe(agi.usage_conditions)
    expect(rec.frontMatter.metadata).toMatchObject({ skillbench: { skill_id: '1768615161', quality_index: 0.65, title: 'Python计算器项目开发' } })
  })

  it('an edit made after export wins over the stale carrier (rating an exported AGIAgent skill)', () => {
    // SKILL.md → AGIAgent: the carrier says "no quality_index"; then the agent rates the AGIAgent copy.
    const md = fromSkillMd(parseSkillMd(read('skill-md', 'log-analysis', 'SKILL.md')))
    const agi = toAgiAgent(md)
    agi.frontMatter.quality_index = 0.8
    agi.frontMatter.title = 'Log analysis (renamed)'
    const back = fromAgiAgent(parseAgiAgent(serializeAgiAgent(agi)))
    expect(back.quality_index).toBe(0.8)
    expect(back.title).toBe('Log analysis (renamed)')
    expect(back.name).toBe('log-analysis')
    expect(back.license).toBe('Apache-2.0')
  })
})

describe('listMasConfigs', () => {
  it('lists and validates every config of a folder and builds the text from the valid ones', async () => {
    const { listMasConfigs } = await import('../../src/main/formats/tree')
    const r = await listMasConfigs(path.join(FIXTURES, 'mas'))
    expect(r.configs.map((c) => [c.path, c.problems.length])).toEqual([
      ['broken_config.yaml', 2],
      ['planning_config.yaml', 0],
      ['reflection_config.yaml', 0]
    ])
    expect(r.availableSkillsText.split('\n').slice(1, 3)).toEqual(['- planning: 将任务拆解为有序的步骤计划', "- reflection: Review the last step's result and record lessons in persistent memory"])
  })
})
