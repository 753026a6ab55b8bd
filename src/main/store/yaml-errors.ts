/**
 * The `yaml` package's error messages said for a person. One case needs it: a document nested thousands of levels
 * deep makes the parser run out of stack, which it reports as "Maximum call stack size exceeded at line N…".
 */

/** The first line of a YAML error, with a stack overflow said as what it is: nesting too deep. */
export function yamlErrorText(message: string): string {
  const first = message.split('\n')[0] ?? message
  if (/Maximum call stack size exceeded/.test(first)) {
    const at = /at line (\d+), column (\d+)/.exec(first)
    return `nested too deeply to read${at ? ` (at line ${at[1]}, column ${at[2]})` : ''}`
  }
  return first.replace(/:\s*$/, '').slice(0, 300)
}
