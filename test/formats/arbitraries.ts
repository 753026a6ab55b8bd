/** fast-check generators for the neutral skill model and the records of each format. */
import fc from 'fast-check'
import type { LearnedStep, PortableSkill } from '../../src/main/formats/model'

/** Text with the shapes that break YAML writers: numbers-as-strings, yes/no, '---', newlines, CJK, quotes, spaces. */
export const tricky = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '0123', '1768615161', 'yes', 'no', 'on', 'null', '~', '0o17', '0x1F', '1e3', '.inf', '2026-01-17T09:59:21', '---', '--- x', 'a: b', '- item', '#x', "'q'", '"dq"', '任务成功完成，用户需求得到完全满足', 'line1\nline2', 'trail \n', '\ttab', '\r\n', '…') },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('a', ' ', '\n', '-', ':', '#', '任', '"', "'", '\\', '|', '>', '0', '\t'), { maxLength: 20 }).map((a) => a.join('')) }
)

const noNul = tricky.map((s) => s.split(String.fromCharCode(0)).join(''))
const key = fc.stringMatching(/^x_[a-z][a-z0-9_]{0,8}$/)
const leaf = fc.oneof(noNul, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)), fc.boolean(), fc.constant(null))
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 2 }), fc.dictionary(key, tie('value'), { maxKeys: 2 }))
})).value
const bag = fc.dictionary(key, json, { minKeys: 1, maxKeys: 2 })

const step: fc.Arbitrary<LearnedStep> = fc.record(
  {
    order: fc.integer({ min: 0, max: 50 }),
    action: noNul,
    params: fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,8}$/).filter((k) => !['name', 'title', 'description', 'skill_id'].includes(k)), noNul, { maxKeys: 3 }),
    expectedResult: noNul,
    extra: bag
  },
  { requiredKeys: ['order', 'action', 'params', 'expectedResult'] }
)

const iso = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())

/** Any skill of the neutral model, with every optional field sometimes present. */
export const portableSkill: fc.Arbitrary<PortableSkill> = fc
  .record(
    {
      title: noNul,
      name: fc.oneof(fc.stringMatching(/^[a-z0-9]{1,10}(-[a-z0-9]{1,10}){0,3}$/), noNul),
      description: fc.oneof(noNul, fc.string({ minLength: 1000, maxLength: 1300 })),
      body: fc.oneof(noNul, fc.constant('# Title\n\nSome *markdown*.\n\n---\n\nmore\n')),
      skill_id: fc.stringMatching(/^\d{1,12}$/),
      usage_conditions: noNul,
      quality_index: fc.double({ min: 0, max: 1, noNaN: true }).filter((d) => !Object.is(d, -0)),
      fetch_count: fc.nat(1000),
      related_code: noNul,
      task_directories: fc.array(noNul, { maxLength: 3 }),
      created_at: iso,
      updated_at: iso,
      last_used_at: fc.oneof(iso, fc.constant(null)),
      user_preferences: noNul,
      pinned: fc.boolean(),
      license: noNul,
      compatibility: fc.oneof(noNul, fc.string({ minLength: 490, maxLength: 520 })),
      allowed_tools: noNul,
      metadata: fc.dictionary(key, json, { minKeys: 1, maxKeys: 2 }),
      resources: fc.uniqueArray(fc.constantFrom('scripts/a.py', 'references/b.md', 'assets/c.png'), { minLength: 1 }).map((a) => a.sort()),
      learned_id: noNul,
      trigger_pattern: noNul,
      steps: fc.array(step, { maxLength: 3 }),
      examples: fc.array(noNul, { maxLength: 3 }),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }).filter((d) => !Object.is(d, -0)),
      tags: fc.array(noNul, { maxLength: 3 }),
      learned_created_at: fc.oneof(fc.integer({ min: 0, max: 4_102_444_800_000 }), iso),
      source_files: fc.array(noNul, { maxLength: 3 }),
      return_format: noNul,
      prompt_skill_name: noNul,
      extra: fc.record(
        {
          agiagent: bag,
          'skill-md': bag,
          'learned-yaml': bag,
          'mas-config': fc.record({ top: bag, use_guide: bag, use_prompt: bag }, { requiredKeys: [] })
        },
        { requiredKeys: [] }
      )
    },
    { requiredKeys: ['title', 'description', 'body', 'extra'] }
  )
