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
import { parseYamlDocument, type YamlLib } from './yaml-policy'
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
  if (!problem) return { doc, problem: null }
  const at = problem.offset != null ? positionOf(yaml, problem.offset, firstLine) : null
  if (problem.kind === 'policy') return { doc, problem: { coded: problem.coded, at } }
  // a syntax error: where the parser stopped, when it says (a person looks for the line in the file); an unclosed
  // quote or bracket names the line it opened on itself, and `at` is that opening
  const reason = refOf(problem.coded)
  return { doc, problem: { coded: at && !problem.placed ? coded('parse.yaml_at', { problem: reason, ...at }) : coded('parse.yaml', { problem: reason }), at } }
}
