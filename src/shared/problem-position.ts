/**
 * Where a skill file's front matter goes wrong, as a 1-based line and column of the whole file, so an editor can
 * put the parse error on its line (the store says *what* is wrong; the app's file editor and the workbench both use this). Pure.
 */
import { isAlias, isCollection, isScalar, Lexer, parseDocument, Parser, visit } from 'yaml'
import { readFrontMatterYaml, secondFrontMatterAt } from './front-matter-yaml'
import { positionOf, type TextPosition } from './text-position'

export type { TextPosition }

const YAML_LIB = { parseDocument, visit, isAlias, isScalar, isCollection, Lexer, Parser }

/** The position of the first problem in a skill file's front matter, or null when none can be pinned down. */
export function locateSkillProblem(fileText: string): TextPosition | null {
  const text = fileText.charCodeAt(0) === 0xfeff ? fileText.slice(1) : fileText
  const firstNl = text.indexOf('\n')
  const firstLine = (firstNl < 0 ? text : text.slice(0, firstNl)).replace(/\r$/, '')
  if (firstLine.trimEnd() !== '---' || firstNl < 0) return { line: 1, column: 1 }
  const close = /^---[ \t]*\r?$/gm
  close.lastIndex = firstNl + 1
  const end = close.exec(text)
  if (!end) return { line: 1, column: 1 }
  const yaml = text.slice(firstNl + 1, end.index)
  // the YAML starts on the file's second line, after the opening `---`: what the store refuses, pinned down
  const { problem } = readFrontMatterYaml(YAML_LIB, yaml, 2)
  if (problem) return problem.at
  // a second `---` … `---` block right after the first (store/skill-file.ts refuses it too)
  let after = end.index + end[0].length
  if (text[after] === '\n') after++
  const second = secondFrontMatterAt(text, after)
  return second === null ? null : positionOf(text, second)
}
