/** Small string helpers shared by the reflection modules (pure). */

/** Cuts `text` to at most `max` chars, never splitting a surrogate pair, with `…` at the end. */
export function clip(text: string, max: number): string {
  if (text.length <= max) {
    return text
  }
  if (max <= 1) {
    return '…'
  }
  let end = max - 1
  if (isHighSurrogate(text.charCodeAt(end - 1))) {
    end--
  }
  return text.slice(0, end) + '…'
}

/**
 * Keeps the head and the tail of `text` within `max` chars, replacing the middle by a marker that says
 * how much was left out. The tail gets the larger share: the end of a log says how the task ended.
 */
export function cutMiddle(text: string, max: number, marker = (n: number) => `\n… [${n} chars cut from the middle to fit the budget] …\n`): string {
  if (text.length <= max) {
    return text
  }
  const probe = marker(text.length)
  const room = max - probe.length
  if (room <= 0) {
    return clip(text, max)
  }
  let headLen = Math.floor(room * 0.4)
  let tailStart = text.length - (room - headLen)
  if (isHighSurrogate(text.charCodeAt(headLen - 1))) {
    headLen--
  }
  if (isLowSurrogate(text.charCodeAt(tailStart))) {
    tailStart++
  }
  return text.slice(0, headLen) + marker(tailStart - headLen) + text.slice(tailStart)
}

/** One line, collapsed whitespace. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
