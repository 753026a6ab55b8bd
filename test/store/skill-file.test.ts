import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { parseDocument } from 'yaml'
import { describe, expect, it } from 'vitest'
import {
  parseSkillBytes,
  parseSkillText,
  patchFrontMatterYaml,
  rewriteSkillFile,
  serializeSkillFile,
  parseWithYamlLibrary
} from '../../src/main/store/skill-file'
import { parseSimpleYaml } from '../../src/main/store/simple-yaml'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

const g = globalThis as { __poc?: unknown }

function reasonOf(text: string): string {
  const r = parseSkillText(text)
  if (r.ok) throw new Error(`expected invalid, got ${JSON.stringify(r.file.data)}`)
  return r.reason
}

function dataOf(text: string): Record<string, unknown> {
  const r = parseSkillText(text)
  if (!r.ok) throw new Error(r.reason)
  return r.file.data
}

/** A 9-level "billion laughs" alias tree (360 bytes that expand to gigabytes). */
function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  const names = 'abcdefghi'
  for (let i = 1; i < names.length; i++) {
    const p = names[i - 1]
    lines.push(`${names[i]}: &${names[i]} [*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p}]`)
  }
  return `---\n${lines.join('\n')}\n---\nbody\n`
}

describe('hostile front matter (security guide §6): rejected, never crashes, never runs code', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['---js engine', "---js\n{ skill_id: (globalThis.__poc = 'js', '1') }\n---\nbody\n", /only YAML/],
    ['---javascript engine', "---javascript\nglobalThis.__poc = 'javascript'; module.exports = {}\n---\nbody\n", /only YAML/],
    ['--- javascript (space)', "--- javascript\nglobalThis.__poc = 'space'\n---\nbody\n", /only YAML/],
    ['---JS upper case', "---JS\n({ a: globalThis.__poc = 'JS' })\n---\nbody\n", /only YAML/],
    ['---coffee engine', '---coffee\na: 1\n---\nbody\n', /only YAML/],
    ['alias bomb', aliasBomb(), /anchors|aliases/],
    ['single anchor', '---\na: &x 1\nb: 2\n---\nbody\n', /anchors/],
    ['__proto__ key', '---\n__proto__:\n  polluted: true\ntitle: x\n---\nbody\n', /forbidden key "__proto__"/],
    ['nested __proto__ key', '---\nmetadata:\n  __proto__: {polluted: true}\n---\nbody\n', /forbidden key/],
    ['constructor key', '---\nconstructor: x\n---\nbody\n', /forbidden key "constructor"/],
    ['string root', '---\njust a string\n---\nbody\n', /mapping/],
    ['array root', '---\n- a\n- b\n---\nbody\n', /mapping/],
    ['duplicate keys', "---\nskill_id: '1'\nskill_id: '2'\n---\nbody\n", /invalid YAML|duplicate/i],
    ['missing closing delimiter', "---\nskill_id: '1'\ntitle: x\n\nbody with no closing line\n", /not closed/],
    ['no front matter', '# Just Markdown\n\ntext\n', /no front matter/],
    ['oversized front matter', `---\ntitle: '${'x'.repeat(70 * 1024)}'\n---\nbody\n`, /larger than 64 KB/],
    ['!!js/function tag', '---\na: !!js/function "function () { globalThis.__poc = 1 }"\n---\nbody\n', /tag/],
    ['!!python/object tag', '---\na: !!python/object/apply:os.system ["echo pwned"]\n---\nbody\n', /tag/],
    ['custom local tag', '---\na: !secret x\n---\nbody\n', /tag/],
    ['NUL byte in front matter', '---\na: "x\u0000y"\n---\nbody\n', /NUL/],
    ['complex (collection) key', '---\n? [a, b]\n: c\n---\nbody\n', /plain scalars|invalid YAML/],
    ['deep nesting (depth 1000)', `---\na: ${'['.repeat(1000)}${']'.repeat(1000)}\n---\nbody\n`, /deeper|invalid YAML/],
    ['broken YAML', "---\nskill_id: '1'\ntitle: [unclosed\n---\nbody\n", /invalid YAML/],
    ['tab indentation mess', '---\na:\n\t- b\n---\nbody\n', /invalid YAML/]
  ]

  it.each(cases)('%s', (_name, text, reason) => {
    g.__poc = undefined
    expect(reasonOf(text)).toMatch(reason)
    // The same input again: still invalid (no cache hiding the error, gray-matter #121/#166).
    expect(reasonOf(text)).toMatch(reason)
    expect(g.__poc).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('has at least 14 hostile cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(14)
  })

  it('invalid UTF-8 is reported, not replaced with U+FFFD', () => {
    const bytes = Buffer.concat([Buffer.from("---\nskill_id: '1'\ntitle: "), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\n---\nbody\n')])
    const r = parseSkillBytes(bytes)
    expect(r.ok).toBe(false)
    expect(!r.ok && r.reason).toMatch(/UTF-8/)
  })

  it('fuzz: arbitrary text and bytes never throw (2,000 runs)', () => {
    const yamlish = fc.array(fc.constantFrom('---', 'a: 1', 'b: [x', '&a x', '*a', '- y', '  c: d', "'q", '"r', '!!x y', '? k', '\r', '\ufeff', ': ', '#c', '\t', 'é', '中'), { maxLength: 12 })
    fc.assert(
      fc.property(fc.oneof(fc.string(), yamlish.map((p) => p.join('\n'))), (text) => {
        const r = parseSkillText(text)
        expect(typeof r.ok).toBe('boolean')
      }),
      { numRuns: 1000 }
    )
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const r = parseSkillBytes(Buffer.concat([Buffer.from('---\n'), bytes, Buffer.from('\n---\n')]))
        expect(typeof r.ok).toBe('boolean')
      }),
      { numRuns: 1000 }
    )
  })
})

describe('parsing', () => {
  it('keeps string fields as strings (no 0123 → 83 / 123 drift) and leaves other scalars typed', () => {
    const d = dataOf('---\nskill_id: 0123\ntitle: 1.10\ncreated_at: 2024-01-02\nquality_index: 0.5\nfetch_count: 3\nlast_used_at: null\nflag: yes\n---\nbody\n')
    expect(d).toEqual({ skill_id: '0123', title: '1.10', created_at: '2024-01-02', quality_index: 0.5, fetch_count: 3, last_used_at: null, flag: 'yes' })
  })

  it('handles BOM and CRLF and writes them back', () => {
    const text = "\ufeff---\r\nskill_id: '42'\r\ntitle: 标题\r\n---\r\n\r\nline 1\r\nline 2\r\n"
    const r = parseSkillText(text)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.file.bom).toBe(true)
    expect(r.file.eol).toBe('\r\n')
    expect(r.file.data).toEqual({ skill_id: '42', title: '标题' })
    expect(r.file.body).toBe('line 1\r\nline 2\r\n')
    expect(rewriteSkillFile(r.file, [])).toBe(text)
    const changed = rewriteSkillFile(r.file, [{ path: ['fetch_count'], value: 1 }])
    expect(changed).toBe("\ufeff---\r\nskill_id: '42'\r\ntitle: 标题\r\nfetch_count: 1\r\n---\r\n\r\nline 1\r\nline 2\r\n")
  })

  it('a --- inside YAML values or in the body does not end the front matter early', () => {
    const text = "---\ntitle: 'a --- b'\ndescription: |\n  step 1\n  ---\n  step 2\nrelated_code: x---y\n---\n\nbody\n---\nmore body\n"
    const d = dataOf(text)
    expect(d.title).toBe('a --- b')
    expect(d.description).toBe('step 1\n---\nstep 2\n')
    expect(d.related_code).toBe('x---y')
    const r = parseSkillText(text)
    expect(r.ok && r.file.body).toBe('body\n---\nmore body\n')
  })

  it('an empty front matter is an empty object', () => {
    expect(dataOf('---\n---\nbody')).toEqual({})
  })
})

describe('serialization', () => {
  it('new AGIAgent files look exactly like upstream ones (quoted id and dates, unquoted sequence dashes)', () => {
    const text = serializeSkillFile(
      {
        skill_id: '1768615161',
        title: '1. 任务完成情况：测试',
        usage_conditions: '通用任务',
        quality_index: 0.5,
        fetch_count: 0,
        related_code: '',
        task_directories: ['output_20260115_165605'],
        created_at: '2026-01-17T09:59:21.686210',
        updated_at: '2026-01-17T09:59:21.686233',
        last_used_at: null,
        user_preferences: 'yes'
      },
      'body\n'
    )
    expect(text).toBe(
      [
        '---',
        "skill_id: '1768615161'",
        'title: 1. 任务完成情况：测试',
        'usage_conditions: 通用任务',
        'quality_index: 0.5',
        'fetch_count: 0',
        "related_code: ''",
        'task_directories:',
        '- output_20260115_165605',
        "created_at: '2026-01-17T09:59:21.686210'",
        "updated_at: '2026-01-17T09:59:21.686233'",
        'last_used_at: null',
        "user_preferences: 'yes'",
        '---',
        '',
        'body',
        ''
      ].join('\n')
    )
  })

  it('patching keeps untouched formatting and comments, and quotes numeric-looking strings', () => {
    const yaml = 'name: x   # the name\ndescription: "quoted: yes"\nmetadata:\n  short-description: Read\n'
    const out = patchFrontMatterYaml(yaml, [
      { path: ['metadata', 'skillbench', 'skill_id'], value: '0123' },
      { path: ['metadata', 'skillbench', 'fetch_count'], value: 2 }
    ])
    expect(out).toBe(
      "name: x # the name\ndescription: \"quoted: yes\"\nmetadata:\n  short-description: Read\n  skillbench:\n    skill_id: '0123'\n    fetch_count: 2\n"
    )
  })

  it('an unquoted numeric skill_id is rewritten as a quoted string of its source text', () => {
    const r = parseSkillText('---\nskill_id: 0123\ntitle: t\n---\nb')
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const out = rewriteSkillFile(r.file, [{ path: ['fetch_count'], value: 1 }])
    expect(out).toBe("---\nskill_id: '0123'\ntitle: t\nfetch_count: 1\n---\nb")
  })

  const safeKey = fc.oneof(
    fc.stringMatching(/^[a-z_][a-z0-9_-]{0,11}$/).filter((k) => !['constructor', 'prototype'].includes(k)),
    fc.constantFrom('skill_id', 'title', 'name', 'description', 'created_at', 'last_used_at')
  )
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('0123', '1.10', 'yes', 'no', 'null', '~', '', '2024-01-02', ' lead', 'trail ', 'a: b', '#x', '---', '- x', "it's", 'say "hi"', '多行\n文本', '1. 任务完成情况：测试', '## 标题', '@at', '%p', '*star', '&amp', '!bang', '{x}', '[y]')
  )
  const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))
  // Contract string fields hold strings (or null); other keys hold anything.
  const stringFieldNames = new Set(['skill_id', 'title', 'name', 'description', 'created_at', 'last_used_at'])
  const plainKey = safeKey.filter((k) => !stringFieldNames.has(k))
  const value = fc.oneof(scalar, fc.array(text, { maxLength: 4 }), fc.dictionary(plainKey, scalar, { maxKeys: 4 }))
  const data = fc
    .tuple(
      fc.dictionary(plainKey, value, { maxKeys: 6 }),
      fc.dictionary(fc.constantFrom(...stringFieldNames), fc.oneof(text, fc.constant(null)), { maxKeys: 3 })
    )
    .map(([a, b]) => ({ ...b, ...a }))

  it('round-trip property: parse(serialize(data)) equals data, and parse∘serialize∘parse is stable (1,000 runs)', () => {
    fc.assert(
      fc.property(data, fc.string({ maxLength: 60 }), fc.boolean(), fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), (d, body, bom, eol) => {
        // -0 has no YAML spelling distinct from 0.
        const norm = JSON.parse(JSON.stringify(d, (_k, v) => (Object.is(v, -0) ? 0 : v)))
        const written = serializeSkillFile(norm, body, { bom, eol })
        const r = parseSkillText(written)
        expect(r.ok).toBe(true)
        if (!r.ok) return
        expect(r.file.data).toEqual(norm)
        expect(Object.keys(r.file.data)).toEqual(Object.keys(norm))
        expect(r.file.body).toBe(body)
        // Rewriting with no changes gives the same bytes.
        expect(rewriteSkillFile(r.file, [])).toBe(written)
      }),
      { numRuns: 1000 }
    )
  })

  it('the fast reader agrees with the full YAML parser on everything it accepts (1,000 runs)', () => {
    const line = fc.oneof(
      fc.tuple(safeKey, text).map(([k, v]) => `${k}: ${v.replace(/\n/g, ' ')}`),
      fc.tuple(safeKey, text).map(([k, v]) => `${k}: '${v.replace(/\n/g, ' ').replace(/'/g, "''")}'`),
      fc.tuple(safeKey, fc.array(text, { maxLength: 3 })).map(([k, vs]) => `${k}:\n${vs.map((v) => `- ${v.replace(/\n/g, ' ')}`).join('\n')}`),
      fc.tuple(safeKey, safeKey, text).map(([k, k2, v]) => `${k}:\n  ${k2}: ${v.replace(/\n/g, ' ')}`),
      fc.tuple(safeKey, fc.integer()).map(([k, n]) => `${k}: ${n}`),
      fc.tuple(safeKey, fc.array(safeKey, { maxLength: 3 })).map(([k, xs]) => `${k}: [${xs.join(', ')}]`)
    )
    let accepted = 0
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        const yaml = lines.join('\n') + '\n'
        const fast = parseSimpleYaml(yaml)
        if (fast === undefined) return
        accepted++
        const full = parseDocument(yaml, { schema: 'core', uniqueKeys: true })
        expect(full.errors).toEqual([])
        const viaFull = parseWithYamlLibrary(yaml)
        expect(viaFull.ok).toBe(true)
        if (viaFull.ok) expect(fast).toEqual(viaFull.data)
      }),
      { numRuns: 1000 }
    )
    expect(accepted).toBeGreaterThan(250)
  })
})

describe.skipIf(!HAS_REAL_DATA)('real upstream AGIAgent files', () => {
  const dir = realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'default', 'general', 'experience')
  const files = HAS_REAL_DATA ? fs.readdirSync(dir).filter((f) => f.endsWith('.md')) : []

  it.each(files)('%s re-serializes byte for byte', (name) => {
    const bytes = fs.readFileSync(path.join(dir, name))
    const r = parseSkillBytes(bytes)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(typeof r.file.data.skill_id).toBe('string')
    expect(serializeSkillFile(r.file.data, r.file.body)).toBe(bytes.toString('utf8'))
    expect(rewriteSkillFile(r.file, [])).toBe(bytes.toString('utf8'))
  })
})
