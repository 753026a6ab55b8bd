/** A library of files that do not load, one of each way (load-reasons-coded.test.ts, search/cache-reasons.test.ts). */
import fs from 'node:fs'
import path from 'node:path'
import { tempDir } from './helpers'

const skill = (id: string, extra = ''): string => `---\nskill_id: '${id}'\ntitle: Skill ${id}\n${extra}---\n\nbody ${id}\n`

/** A library with one good skill and one file of each way of not loading. */
export function makeBrokenLibrary(): string {
  const dir = tempDir('sb-reasons-')
  const put = (rel: string, text: string | Buffer): void => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
  put('skill_1.md', skill('1'))
  put('skill_2.md', `---\nskill_id: '2'\ntitle: a\ntitle: b\n---\nbody\n`)
  put('skill_3.md', 'just words, no front matter\n')
  put('skill_4.md', Buffer.concat([Buffer.from(`---\nskill_id: '4'\ntitle: `), Buffer.from([0xff, 0xfe]), Buffer.from('\n---\nbody\n')]))
  put('skill_5.md', `---\nskill_id: '5'\nbase: &b x\ntitle: *b\n---\nbody\n`)
  put('skill_6.md', `---\nskill_id: 12ab\ntitle: six\n---\nbody\n`)
  put('skill_7.md', `---\nskill_id: '7'\ntitle: "open\n---\nbody\n`)
  put('skill_8.md', skill('1'))
  fs.symlinkSync(path.join(dir, 'skill_1.md'), path.join(dir, 'skill_9.md'))
  fs.mkdirSync(path.join(dir, 'skill_10.md'))
  return dir
}

/** A skill file with an unclosed quote or bracket in its front matter, and what it must say: where that opened. */
export interface UnclosedCase {
  /** The file, relative to the library. */
  rel: string
  text: string
  /** The problem inside `parse.yaml`, by code. */
  problem: { messageCode: string; params: Record<string, string | number> }
  /** Its English words after "invalid YAML: ". */
  words: string
}

/**
 * Every kind of unclosed quote or bracket, in both layouts (AGIAgent `skill_*.md`, SKILL.md folders), the two of the
 * issue as given; line 1 is the opening `---`. Plus two files whose quoted values and brackets legitimately go on
 * over several lines (continuation lines indented, as YAML 1.2 wants them), which load.
 */
export const UNCLOSED_CASES: UnclosedCase[] = [
  {
    rel: 'skill_a.md',
    text: '---\nskill_id: "1"\ntitle: "unclosed\nusage_conditions: x\nquality_index: 0.5\nfetch_count: 1\ntask_directories: []\n---\n\nbody\n',
    problem: { messageCode: 'yaml.unclosed_quote', params: { line: 3, column: 8 } },
    words: 'a quote opened at line 3, column 8 is never closed'
  },
  {
    rel: 'skill_b.md',
    text: '---\nskill_id: "2"\ntitle: ok\ntags: [a, b\nusage_conditions: x\nquality_index: 0.5\n---\n\nbody\n',
    problem: { messageCode: 'yaml.unclosed_bracket', params: { bracket: '[', line: 4, column: 7 } },
    words: 'a [ opened at line 4, column 7 is never closed'
  },
  {
    rel: 'skill_c.md',
    text: "---\nskill_id: '3'\ntitle: 'it''s unclosed\nusage_conditions: x\n---\n\nbody\n",
    problem: { messageCode: 'yaml.unclosed_quote', params: { line: 3, column: 8 } },
    words: 'a quote opened at line 3, column 8 is never closed'
  },
  {
    rel: 'skill_d.md',
    text: "---\nskill_id: '4'\ntitle: four\nuser_preferences: {tone: terse, lang: en\nquality_index: 0.5\n---\n\nbody\n",
    problem: { messageCode: 'yaml.unclosed_bracket', params: { bracket: '{', line: 4, column: 19 } },
    words: 'a { opened at line 4, column 19 is never closed'
  },
  {
    // a block [ over several lines, the closing one forgotten
    rel: 'skill_e.md',
    text: "---\nskill_id: '5'\ntitle: five\ntask_directories: [\n  /tmp/a,\n  /tmp/b\nquality_index: 0.5\n---\n\nbody\n",
    problem: { messageCode: 'yaml.unclosed_bracket', params: { bracket: '[', line: 4, column: 19 } },
    words: 'a [ opened at line 4, column 19 is never closed'
  },
  {
    // a quote later in the file: the parser takes it for the closing one, then finds line 4 not indented to go on
    rel: 'skill_f.md',
    text: "---\nskill_id: '6'\ntitle: \"six\nusage_conditions: x\ncreated_at: \"2025-01-01 10:00:00\"\n---\n\nbody\n",
    problem: { messageCode: 'yaml.unclosed_quote_before', params: { line: 3, column: 8, end: 4 } },
    words: 'a quote opened at line 3, column 8 is not closed before line 4, which is not indented to continue it'
  },
  {
    rel: 'quote/SKILL.md',
    text: '---\nname: quote\ndescription: "Does things.\nlicense: MIT\n---\n\n# Quote\n',
    problem: { messageCode: 'yaml.unclosed_quote', params: { line: 3, column: 14 } },
    words: 'a quote opened at line 3, column 14 is never closed'
  },
  {
    // a block { over several lines, the closing one forgotten
    rel: 'flow-map/SKILL.md',
    text: '---\nname: flow-map\ndescription: Does things. Use when asked.\nmetadata: {\n  author: x,\n  version: "1"\nlicense: MIT\n---\n\n# Flow map\n',
    problem: { messageCode: 'yaml.unclosed_bracket', params: { bracket: '{', line: 4, column: 11 } },
    words: 'a { opened at line 4, column 11 is never closed'
  },
  {
    // nested one level down; the closing ] written left of its key, too little indented to close it
    rel: 'nested/SKILL.md',
    text: '---\nname: nested\ndescription: Does things. Use when asked.\nmetadata:\n  tags: [a,\n    b\n]\n---\n\n# Nested\n',
    problem: { messageCode: 'yaml.unclosed_bracket_before', params: { bracket: '[', line: 5, column: 9, end: 7 } },
    words: 'a [ opened at line 5, column 9 is not closed before line 7, which is not indented to continue it'
  }
]

/** Files whose quotes and brackets go on over several lines as YAML 1.2 allows: each loads, with these values. */
export const MULTILINE_OK: { rel: string; text: string; data: Record<string, unknown> }[] = [
  {
    rel: 'skill_g.md',
    text: "---\nskill_id: '7'\ntitle: \"a title that goes on\n  over two lines\"\nusage_conditions: 'when it''s\n\n  raining'\ntask_directories: [\n  /tmp/a,\n  /tmp/b]\nquality_index: 0.5\nfetch_count: 0\n---\n\nbody\n",
    data: { title: 'a title that goes on over two lines', usage_conditions: "when it's\nraining", task_directories: ['/tmp/a', '/tmp/b'] }
  },
  {
    rel: 'multi/SKILL.md',
    text: '---\nname: multi\ndescription: "Does things.\n  Use when asked."\nmetadata: {author: x,\n  version: "1"}\n---\n\n# Multi\n',
    data: { name: 'multi', description: 'Does things. Use when asked.', metadata: { author: 'x', version: '1' } }
  }
]

/** A library of UNCLOSED_CASES and MULTILINE_OK, written to disk. */
export function makeUnclosedLibrary(): string {
  const dir = tempDir('sb-unclosed-')
  for (const { rel, text } of [...UNCLOSED_CASES, ...MULTILINE_OK]) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
  return dir
}
