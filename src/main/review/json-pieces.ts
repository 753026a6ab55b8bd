/**
 * JSON text of a large object in pieces: `jsonPieces(value, indent).join('')` is exactly
 * `JSON.stringify(value, null, indent)`, but each element of a top-level array member is serialised on its
 * own. A plan of 20,000 skills carries tens of megabytes of exact file texts; written piece by piece it never
 * exists as one string (plus its flattened copy plus its bytes) at once. Pure.
 */

function indented(json: string, pad: string): string {
  // JSON.stringify escapes line breaks inside strings, so every \n here is structure.
  return json.replace(/\n/g, `\n${pad}`)
}

/**
 * An array element's JSON as it stands two levels deep (its lines indented twice): stringified inside two arrays
 * and cut out of them, so JSON.stringify indents it itself. Re-indenting a stringified element copied each
 * proposal's text once more (~5 MB and ~10 ms per output at 20,000 skills, right where the peak is). An element
 * JSON leaves out (undefined, a function) is `null` in an array, as here.
 */
function atDepthTwo(item: unknown, indent: number, pad: string): string {
  const json = JSON.stringify([[item]], null, indent)
  // [\n{pad}[\n{pad}{pad}ITEM\n{pad}]\n]
  return json.slice(4 + 3 * pad.length, json.length - (4 + pad.length))
}

/** `JSON.stringify` of one value, or undefined where JSON leaves the member out. */
function stringify(value: unknown, indent: number): string | undefined {
  return JSON.stringify(value, null, indent) as string | undefined
}

export function* jsonPieces(value: Record<string, unknown>, indent: number): Generator<string> {
  if (!(Number.isInteger(indent) && indent >= 1 && indent <= 10)) throw new RangeError(`indent must be 1–10, got ${indent}`)
  const pad = ' '.repeat(indent)
  const members = Object.entries(value)
    .map(([key, v]) => [key, v, Array.isArray(v) && v.length > 0 ? null : stringify(v, indent)] as const)
    .filter(([, v, json]) => json !== undefined || (Array.isArray(v) && v.length > 0))
  if (members.length === 0) {
    yield '{}'
    return
  }
  yield '{\n'
  for (let m = 0; m < members.length; m++) {
    const [key, v, json] = members[m]!
    yield `${pad}${JSON.stringify(key)}: `
    if (json !== null && json !== undefined) yield indented(json, pad)
    else {
      const items = v as unknown[]
      const pad2 = pad + pad
      yield '[\n'
      for (let i = 0; i < items.length; i++) yield `${pad2}${atDepthTwo(items[i], indent, pad)}${i + 1 < items.length ? ',\n' : '\n'}`
      yield `${pad}]`
    }
    yield m + 1 < members.length ? ',\n' : '\n'
  }
  yield '}'
}

/** Pieces gathered into chunks of at least `size` characters (fewer, larger writes), the last one with `end` appended. */
export function* chunked(pieces: Iterable<string>, size: number, end = ''): Generator<string> {
  let chunk = ''
  for (const piece of pieces) {
    chunk += piece
    if (chunk.length >= size) {
      yield chunk
      chunk = ''
    }
  }
  yield chunk + end
}
