/**
 * A skill's front matter YAML read under the policy (yaml-policy.ts), its first problem said the one way: what the
 * policy refuses by its own code, a syntax error as `parse.yaml_at` with the line and column of the *file* (or
 * `parse.yaml` when the parser does not say where, or when the words name the place themselves: an unclosed quote or
 * bracket), plus that place for an editor to mark. The store's loader (store/skill-file.ts: `validate`, the Skills
 * list's load problems) and the app's skill editor (renderer/features/editor/front-matter.ts) both read front matter
 * through it, so a mistake reads the same in both, in the reader's language. The `yaml` package is passed in (the
 * store loads it only when its fast reader gives up). Pure.
 */
import { coded, refOf, type CodedText } from './error-codes'
import { positionOf, type TextPosition } from './text-position'
import { MAX_FRONT_MATTER_BYTES, parseYamlDocument, type YamlLib } from './yaml-policy'
import type * as YamlModule from 'yaml'

export interface FrontMatterYamlProblem {
  /** What is wrong, by code (its English as `text`). */
  coded: CodedText
  /** Where, in the file's lines (null: the parser does not say). */
  at: TextPosition | null
}

/**
 * Parses a front matter's YAML text; `firstLine` is the line of the file it starts on (2: after the opening `---`).
 * Never throws. `doc` is null only when the parser itself gave up.
 */
export function readFrontMatterYaml(lib: YamlLib, yaml: string, firstLine: number): { doc: YamlModule.Document.Parsed | null; problem: FrontMatterYamlProblem | null } {
  const { doc, problem } = parseYamlDocument(lib, yaml, 'skill front matter', firstLine)
  if (!problem) {
    // the parser reads the first document and, silent, says nothing of the rest: what follows would be lost
    const second = doc ? secondDocument(lib, yaml) : null
    if (!second) return { doc, problem: null }
    const at = positionOf(yaml, second.offset, firstLine)
    return { doc, problem: { coded: coded('parse.second_document', { line: at.line, marker: second.marker }), at } }
  }
  const at = problem.offset != null ? positionOf(yaml, problem.offset, firstLine) : null
  if (problem.kind === 'policy') return { doc, problem: { coded: problem.coded, at } }
  // a syntax error: where the parser stopped, when it says (a person looks for the line in the file); an unclosed
  // quote or bracket names the line it opened on itself, and `at` is that opening
  const reason = refOf(problem.coded)
  return { doc, problem: { coded: at && !problem.placed ? coded('parse.yaml_at', { problem: reason, ...at }) : coded('parse.yaml', { problem: reason }), at } }
}

/**
 * Where a second YAML document starts inside a front matter's YAML text: the line at the left margin that ends the
 * first (`...`) or starts the next (`--- …`: a bare `---` line closes the front matter before the YAML is read),
 * by its offset in `yaml`; null when there is one document. A `...` with nothing but comments after it ends the one
 * document and starts no other. Pure.
 */
export function secondDocument(lib: Pick<YamlLib, 'Parser'>, yaml: string): { offset: number; marker: string } | null {
  let documents = 0
  let endMarker: number | null = null
  for (const token of new lib.Parser().parse(yaml)) {
    if (token.type === 'doc-end') endMarker = token.offset
    if (token.type !== 'document') continue
    if (++documents === 2) {
      const offset = yaml.startsWith('---', token.offset) || endMarker === null ? token.offset : endMarker
      const eol = yaml.indexOf('\n', offset)
      return { offset, marker: yaml.slice(offset, eol < 0 ? undefined : eol).replace(/\r$/, '').trimEnd().slice(0, 40) }
    }
    endMarker = null
  }
  return null
}

/** A `---` line (trailing spaces and CR allowed), as the front matter's delimiters are. */
const DELIMITER_LINE = /^---[ \t]*\r?$/
/** A line that starts a mapping's key (`name:`, `skill_id: 1`): what a front matter block opens with. */
const KEY_LINE = /^[A-Za-z_][\w.-]*:(?:[ \t]|\r?$)/

/**
 * Where a second front matter block starts right after the first (blank lines between allowed): a `---` line, a
 * key line next (its blank and `#` comment lines passed over) and a closing `---` line below. Its keys would be read
 * as the body's first lines, never as front matter. Null when the body starts otherwise (a Markdown rule `---`
 * followed by text, a table, a heading). Pure.
 */
export function secondFrontMatterAt(text: string, from: number): number | null {
  let i = from
  while (text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n')) i += text[i] === '\r' ? 2 : 1
  if (!text.startsWith('---', i)) return null
  const lines = text.slice(i, i + MAX_FRONT_MATTER_BYTES).split('\n')
  if (!DELIMITER_LINE.test(lines[0]!)) return null
  let k = 1
  while (k < lines.length && /^(?:[ \t]*|#.*)\r?$/.test(lines[k]!) && !DELIMITER_LINE.test(lines[k]!)) k++
  if (k >= lines.length || !KEY_LINE.test(lines[k]!)) return null
  for (let j = k + 1; j < lines.length; j++) if (DELIMITER_LINE.test(lines[j]!)) return i
  return null
}
