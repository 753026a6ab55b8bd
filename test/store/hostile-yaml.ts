/**
 * Hostile YAML shapes (test/store/hostile-yaml.test.ts, test/cli/hostile-yaml.test.ts): what each is refused with, by
 * code, at a fixed line and column of its file (line 1 is the opening `---`).
 */

/** A skill file (AGIAgent layout) with this front matter YAML. */
export const skillFile = (yaml: string): string => `---\n${yaml}\n---\n\nbody\n`

const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefghij'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghij'[i]!}`).join(',')}]`)].join('\n')

/** `k:` nested `levels` deep by indentation, one space a level. */
export const indented = (levels: number): string => Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1'

export interface HostileCase {
  name: string
  /** The front matter's YAML. */
  yaml: () => string
  /** The load reason, by code. */
  reason: { messageCode: string; params: Record<string, unknown> }
  /** Its English words. */
  words: string
}

const deep = (line: number, column: number): HostileCase['reason'] => ({ messageCode: 'parse.yaml_at', params: { problem: { messageCode: 'yaml.nested_too_deep', params: {} }, line, column } })

export const HOSTILE_FRONT_MATTER: HostileCase[] = [
  { name: '5,000 unclosed [', yaml: () => '['.repeat(5000), reason: deep(2, 101), words: 'invalid YAML: nested too deeply to read (at line 2, column 101)' },
  { name: '5,000 unclosed [ after a key', yaml: () => `skill_id: '1'\ntitle: ${'['.repeat(5000)}`, reason: deep(3, 107), words: 'invalid YAML: nested too deeply to read (at line 3, column 107)' },
  { name: '60,000 {', yaml: () => '{'.repeat(60_000), reason: deep(2, 101), words: 'invalid YAML: nested too deeply to read (at line 2, column 101)' },
  { name: '100,000 {', yaml: () => '{'.repeat(100_000), reason: { messageCode: 'parse.too_large', params: { kb: 64 } }, words: 'front matter is larger than 64 KB' },
  { name: '20,000 nested "- "', yaml: () => '- '.repeat(20_000) + 'x', reason: deep(2, 201), words: 'invalid YAML: nested too deeply to read (at line 2, column 201)' },
  { name: 'nesting by indentation, 350 levels', yaml: () => indented(350), reason: deep(102, 101), words: 'invalid YAML: nested too deeply to read (at line 102, column 101)' },
  { name: 'a billion laughs', yaml: () => laughs, reason: { messageCode: 'parse.anchor', params: {} }, words: 'YAML anchors (&name) are not allowed in skill front matter' },
  { name: 'a 5 MB line', yaml: () => `title: ${'x'.repeat(5_000_000)}`, reason: { messageCode: 'parse.too_large', params: { kb: 64 } }, words: 'front matter is larger than 64 KB' },
  {
    name: '6,000 unclosed quotes',
    yaml: () => Array.from({ length: 6000 }, (_, i) => `k${i}: "ab`).join('\n'),
    reason: { messageCode: 'parse.yaml', params: { problem: { messageCode: 'yaml.too_many_items', params: { max: 1000, line: 1002, column: 1 } } } },
    words: 'invalid YAML: a mapping or list has more than 1000 entries (at line 1002, column 1)'
  },
  {
    name: "6,000 unclosed ' quotes",
    yaml: () => Array.from({ length: 6000 }, (_, i) => `k${i}: 'ab`).join('\n'),
    reason: { messageCode: 'parse.yaml', params: { problem: { messageCode: 'yaml.too_many_items', params: { max: 1000, line: 1002, column: 1 } } } },
    words: 'invalid YAML: a mapping or list has more than 1000 entries (at line 1002, column 1)'
  }
]

/** Whole YAML files (learned skills, skill configs: the 1 MB cap), and the words after "YAML is not valid YAML: ". */
export const HOSTILE_YAML_FILES: { name: string; text: () => string; words: string }[] = [
  { name: '100,000 {', text: () => '{'.repeat(100_000), words: 'nested too deeply to read (at line 1, column 101)' },
  { name: 'nesting by indentation, 1,400 levels', text: () => indented(1400), words: 'nested too deeply to read (at line 101, column 101)' },
  { name: 'a billion laughs', text: () => laughs, words: 'YAML anchors (&name) are not allowed' },
  { name: '60,000 unclosed quotes', text: () => Array.from({ length: 60_000 }, (_, i) => `k${i}: "ab`).join('\n'), words: 'a mapping or list has more than 1000 entries (at line 1001, column 1)' },
  { name: '60,000 list entries with unclosed quotes', text: () => Array.from({ length: 60_000 }, () => '- "ab').join('\n'), words: 'a mapping or list has more than 1000 entries (at line 1001, column 1)' },
  { name: 'a flow map of 60,000 keys', text: () => `{${Array.from({ length: 60_000 }, (_, i) => `k${i}: 1`).join(', ')}}`, words: 'a mapping or list has more than 1000 entries (at line 1, column 8890)' },
  { name: '90,000 documents', text: () => 'a: 1\n---\n'.repeat(90_000), words: 'more than one YAML document' }
]
