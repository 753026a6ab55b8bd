/** The documentation a script carries about itself: Python module docstring, leading `#` block, or JSDoc header. Pure. */

function afterPreamble(lines: string[]): number {
  let i = 0
  if (lines[0]?.startsWith('#!')) i++
  // Python encoding cookies and editor modelines are not documentation.
  while (i < lines.length && /^#.*(coding[:=]|vim:|-\*-)/.test(lines[i]!)) i++
  return i
}

function hashBlock(lines: string[], start: number, marker: RegExp): string {
  let i = start
  while (i < lines.length && lines[i]!.trim() === '') i++
  const out: string[] = []
  for (; i < lines.length && marker.test(lines[i]!); i++) {
    out.push(lines[i]!.replace(marker, '').replace(/^ /, ''))
  }
  return out.join('\n').trim()
}

function pythonDocstring(lines: string[], start: number): string | null {
  let i = start
  while (i < lines.length && (lines[i]!.trim() === '' || lines[i]!.trim().startsWith('#'))) i++
  const rest = lines.slice(i).join('\n')
  const m = /^[rRuU]?("""|''')([\s\S]*?)\1/.exec(rest)
  if (m) return dedent(m[2]!)
  const single = /^[rRuU]?("|')((?:\\.|(?!\1).)*)\1\s*$/m.exec(rest.split('\n')[0] ?? '')
  return single ? single[2]!.trim() : null
}

function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n')
  const indents = lines.slice(1).filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length)
  const cut = indents.length > 0 ? Math.min(...indents) : 0
  return [lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(cut))].join('\n').trim()
}

function jsDoc(text: string): string | null {
  const body = text.replace(/^#![^\n]*\n/, '').replace(/^\s*(['"])use strict\1;?\s*/, '')
  const m = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(body)
  if (m) {
    return m[1]!
      .split('\n')
      .map((l) => l.replace(/^\s*\* ?/, ''))
      .join('\n')
      .trim()
  }
  return null
}

/** The script's own help text ('' when it has none). `fileName` picks the comment syntax by extension. */
export function extractScriptDoc(fileName: string, text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const ext = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? ''
  const start = afterPreamble(lines)
  if (ext === 'py') {
    return pythonDocstring(lines, start) ?? hashBlock(lines, start, /^#/)
  }
  if (['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'].includes(ext)) {
    return jsDoc(text) ?? hashBlock(lines, start, /^\/\//)
  }
  return hashBlock(lines, start, /^#/)
}

/** How a script is run, by extension; null = not a script we wrap. A file with a shebang and no extension runs itself. */
export function interpreterFor(fileName: string, text: string): string[] | null {
  const ext = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase()
  switch (ext) {
    case 'py':
      return ['python3']
    case 'sh':
      return ['sh']
    case 'bash':
      return ['bash']
    case 'zsh':
      return ['zsh']
    case 'js':
    case 'mjs':
    case 'cjs':
      return ['node']
    case 'ts':
    case 'mts':
    case 'cts':
      return ['npx', '--yes', 'tsx']
    case 'rb':
      return ['ruby']
    case 'pl':
      return ['perl']
    case undefined:
      return text.startsWith('#!') ? [] : null
    default:
      return null
  }
}
