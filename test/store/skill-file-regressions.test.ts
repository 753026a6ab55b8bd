/**
 * Regressions found by the formats helper: strings made of whitespace-only lines lost by block scalars, and
 * string coercion by key name at any depth (only top-level keys and `metadata.skillbench` bookkeeping are strings
 * by contract). Both parsers (the fast reader and the `yaml` package path) are checked.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeSkillBytes, parseFrontMatterYaml, parseSkillText, parseWithYamlLibrary, patchFrontMatterYaml, rewriteSkillFile, serializeSkillFile, stringifyFrontMatter } from '../../src/main/store/skill-file'
import { parseSimpleYaml } from '../../src/main/store/simple-yaml'

/** Parses with both readers; the fast one may decline (undefined) but must agree when it answers. */
function parseBoth(yaml: string): Record<string, unknown> {
  const full = parseWithYamlLibrary(yaml)
  if (!full.ok) throw new Error(full.reason)
  const fast = parseSimpleYaml(yaml)
  if (fast !== undefined) expect(fast).toEqual(full.data)
  return full.data
}

describe('whitespace-only lines in multi-line strings', () => {
  // the last one: the `yaml` package's multi-line double-quoted form turned "\n \n" lines into backslashes
  const cases = [' \n', '  \n\t\n', '\t\n', ' \n ', 'a\n \nb', '\n \n', 'x\n  ', ' \n\n', '\u3000\n \n', ' \t \n   \n\n,\n \n \n \n  ,""  "  ']
  it.each(cases)('%j survives serialize → parse and a patch', (v) => {
    const yaml = stringifyFrontMatter({ title: v, other: { note: v }, list: [v] })
    expect(parseBoth(yaml)).toEqual({ title: v, other: { note: v }, list: [v] })
    const patched = patchFrontMatterYaml("title: 't'\n", [{ path: ['usage_conditions'], value: v }])
    expect(parseBoth(patched).usage_conditions).toBe(v)
  })
})

describe('string fields by contract only where the contract says', () => {
  it('a nested key named like a string field keeps its YAML type', () => {
    const yaml = 'name: 123\nextra:\n  name: 123\n  skill_id: 0123\n  title: true\nmetadata:\n  other:\n    created_at: 5\n'
    expect(parseBoth(yaml)).toEqual({ name: '123', extra: { name: 123, skill_id: 123, title: true }, metadata: { other: { created_at: 5 } } })
  })

  it('metadata.skillbench bookkeeping strings keep their source text; its numbers stay numbers', () => {
    const yaml = 'name: x\nmetadata:\n  skillbench:\n    skill_id: 0123\n    created_at: 2026\n    fetch_count: 3\n    quality_index: 0.5\n'
    expect(parseBoth(yaml)).toEqual({ name: 'x', metadata: { skillbench: { skill_id: '0123', created_at: '2026', fetch_count: 3, quality_index: 0.5 } } })
  })

  it('patching quotes unquoted numeric bookkeeping ids of SKILL.md files, and only those', () => {
    const yaml = 'name: x\nextra:\n  name: 7\nmetadata:\n  skillbench:\n    skill_id: 0123\n'
    const out = patchFrontMatterYaml(yaml, [{ path: ['metadata', 'skillbench', 'fetch_count'], value: 1 }])
    expect(out).toBe("name: x\nextra:\n  name: 7\nmetadata:\n  skillbench:\n    skill_id: '0123'\n    fetch_count: 1\n")
    expect(parseBoth(out)).toEqual({ name: 'x', extra: { name: 7 }, metadata: { skillbench: { skill_id: '0123', fetch_count: 1 } } })
  })

  // Shapes the old round-trip property never generated: string-field names below the top level holding
  // numbers/booleans, and whitespace-only lines in strings at every depth.
  const fieldName = fc.constantFrom('skill_id', 'title', 'name', 'description', 'created_at', 'usage_conditions', 'related_code', 'plain')
  const wsText = fc.array(fc.constantFrom(' ', '\t', '\n', 'a', '中', '#', ':', '-', "'", '"', '0'), { maxLength: 10 }).map((cs) => cs.join(''))
  const scalar = fc.oneof(wsText, fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }))
  const nested = fc.dictionary(fieldName, fc.oneof(scalar, fc.array(wsText, { maxLength: 3 })), { maxKeys: 4 })
  const topString = fc.dictionary(fieldName, fc.oneof(wsText, fc.constant(null)), { maxKeys: 3 })
  const data = fc
    .tuple(topString, fc.dictionary(fc.constantFrom('extra', 'more', 'deep'), fc.oneof(nested, fc.dictionary(fc.constantFrom('inner'), nested, { maxKeys: 1 })), { maxKeys: 2 }), nested)
    .map(([top, maps, sb]) => {
      // bookkeeping strings are strings by contract: give them strings (or null) like the store writes them
      const bookkeeping: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(sb)) bookkeeping[k] = ['skill_id', 'created_at', 'related_code'].includes(k) && typeof v !== 'string' && v !== null ? String(v) : v
      return JSON.parse(JSON.stringify({ ...top, ...maps, metadata: { skillbench: bookkeeping } }, (_k, v) => (Object.is(v, -0) ? 0 : v))) as Record<string, unknown>
    })

  it('round trip: nested string-field names and whitespace-only lines come back unchanged (1,000 runs)', () => {
    fc.assert(
      fc.property(data, fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), (d, eol) => {
        const written = serializeSkillFile(d, 'body\n', { eol })
        const r = parseSkillText(written)
        expect(r.ok).toBe(true)
        if (!r.ok) return
        expect(r.file.data).toEqual(d)
        expect(rewriteSkillFile(r.file, [])).toBe(written)
        const yaml = stringifyFrontMatter(d)
        const viaFast = parseSimpleYaml(yaml)
        if (viaFast !== undefined) expect(viaFast).toEqual(d)
        const viaPatch = parseFrontMatterYaml(patchFrontMatterYaml('', Object.entries(d).map(([k, v]) => ({ path: [k], value: v }))))
        expect(viaPatch.ok && viaPatch.data).toEqual(d)
      }),
      { numRuns: 1000 }
    )
  })
})

describe('decoding', () => {
  it('valid UTF-8 decodes exactly as the standard decoder, whichever path it takes (ASCII, CJK, astral, BOM; 2,000 runs)', () => {
    const td = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 0, max: 300 }), fc.boolean(), (s, pad, bom) => {
        // long enough inputs take the transcoder path, short ones toString
        const text = (bom ? '\ufeff' : '') + 'x'.repeat(pad) + s
        const bytes = Buffer.from(text, 'utf8')
        const r = decodeSkillBytes(bytes)
        expect(r.ok && r.text).toBe(td.decode(bytes))
        expect(r.ok && r.text).toBe(text)
      }),
      { numRuns: 2000 }
    )
  })
})
