/**
 * AGIAgent's `config.txt`: `key=value` lines, `#` comments, inline `# …` comments.
 *
 * Pure: the caller reads the file. Unknown keys are kept; values are trimmed strings.
 */
export function parseConfigTxt(text: string): Map<string, string> {
  const values = new Map<string, string>()
  for (const rawLine of text.split(/\r?\n/)) {
    const line = stripInlineComment(rawLine).trim()
    if (!line || line.startsWith('#')) {
      continue
    }
    const eq = line.indexOf('=')
    if (eq <= 0) {
      continue
    }
    const key = line.slice(0, eq).trim()
    const value = line.slice(eq + 1).trim()
    if (key) {
      values.set(key, value)
    }
  }
  return values
}

/** Removes a ` # comment` tail; a `#` glued to text (as in a URL fragment) is kept. */
function stripInlineComment(line: string): string {
  const trimmed = line.trimStart()
  if (trimmed.startsWith('#')) {
    return ''
  }
  const match = /\s#/.exec(line)
  return match ? line.slice(0, match.index) : line
}

/** Reads a boolean setting the way AGIAgent writes them (`True`/`False`, also true/false/1/0/yes/no). */
export function configBool(values: Map<string, string>, key: string): boolean | undefined {
  const raw = values.get(key)
  if (raw === undefined) {
    return undefined
  }
  const v = raw.toLowerCase()
  if (['true', '1', 'yes', 'on'].includes(v)) {
    return true
  }
  if (['false', '0', 'no', 'off'].includes(v)) {
    return false
  }
  return undefined
}
