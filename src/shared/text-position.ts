/** A 1-based line and column in a text (pure; no parser here, so the store's loader can use it without loading one). */
export interface TextPosition {
  line: number
  column: number
}

/** Line and column (1-based) of `offset` in `text`, its lines counted from `firstLine`. */
export function positionOf(text: string, offset: number, firstLine = 1): TextPosition {
  let line = firstLine
  let lineStart = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: offset - lineStart + 1 }
}
