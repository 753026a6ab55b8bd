/**
 * One YAML policy (shared/yaml-policy.ts) behind the three readers of outside YAML: skill front matter (the store's
 * full path), whole YAML files (formats' parseYamlSafe) and the editor's error position. Each hostile document is
 * refused by all three, and a plain one is read by all three.
 */
import { describe, expect, it } from 'vitest'
import { parseYamlSafe } from '../../src/main/formats/safe-yaml'
import { parseWithYamlLibrary } from '../../src/main/store/skill-file'
import { locateSkillProblem } from '../../src/shared/problem-position'
import { YAML_MAX_DEPTH } from '../../src/shared/yaml-policy'

const deep = (levels: number): string => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' leaf\n'

const REFUSED: [string, string, RegExp][] = [
  ['an alias', 'a: &x [1]\nb: *x\n', /anchors|aliases/],
  ['a lone anchor', 'a: &x 1\nb: 2\n', /anchors/],
  ['a custom tag', 'a: !!python/object:os.system x\n', /tag !!python\/object:os\.system is not allowed/],
  ['a local tag', 'a: !shell x\n', /tag !shell is not allowed/],
  ['a __proto__ key', 'x: 1\nm:\n  __proto__: {polluted: true}\n', /forbidden key "__proto__"/],
  ['a constructor key', 'constructor: x\n', /forbidden key "constructor"/],
  ['a prototype key', 'prototype: x\n', /forbidden key "prototype"/],
  ['a key that is a map', '? {a: 1}\n: x\n', /keys must be plain scalars/],
  ['a duplicate key', 'a: 1\na: 2\n', /unique|duplicate/i],
  ['nesting past the limit', deep(YAML_MAX_DEPTH + 2), /nested deeper than/]
]

describe('one YAML policy', () => {
  for (const [name, yaml, reason] of REFUSED) {
    it(`${name}: refused as front matter, as a YAML file, and located in the editor`, () => {
      const fm = parseWithYamlLibrary(yaml)
      expect(fm.ok).toBe(false)
      expect(fm.ok ? '' : fm.reason).toMatch(reason)
      expect(() => parseYamlSafe(yaml, 'learned skill')).toThrow(/^learned skill is not valid YAML: /)
      expect(() => parseYamlSafe(yaml, 'learned skill')).toThrow(reason)
      const at = locateSkillProblem(`---\n${yaml}---\nbody\n`)
      expect(at).not.toBeNull()
      expect(at!.line).toBeGreaterThanOrEqual(2) // inside the front matter, not its first delimiter
    })
  }

  it('plain data within the limit is read alike by all three (strings stay strings, no timestamps)', () => {
    const yaml = `title: "0123"\nwhen: 2026-11-01\ntags: [a, b]\nnested:\n  list:\n    - 1\n    - yes\n${deep(YAML_MAX_DEPTH - 2).replace(/^k0/, 'deep')}`
    const fm = parseWithYamlLibrary(yaml)
    expect(fm.ok).toBe(true)
    const file = parseYamlSafe(yaml) as Record<string, unknown>
    expect(file).toMatchObject({ title: '0123', when: '2026-11-01', tags: ['a', 'b'], nested: { list: [1, 'yes'] } })
    expect(fm.ok && fm.data.when).toBe('2026-11-01')
    expect(locateSkillProblem(`---\n${yaml}---\nbody\n`)).toBeNull()
  })
})
