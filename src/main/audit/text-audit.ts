/**
 * The audit of one text file: hidden characters (decoded and shown), then the line rules, with each line's place
 * (Markdown prose, a fenced block, a script). Pure.
 */
import { BIDI_OVERRIDES, findHiddenRuns, revealLine, type HiddenRun } from '../../shared/hidden-text'
import { LINE_RULES, type LineContext } from './line-rules'
import type { AuditFinding, AuditSeverity } from './types'

const SCRIPT_EXT = /\.(?:sh|bash|zsh|fish|ksh|py|pyw|js|mjs|cjs|ts|rb|pl|php|ps1|psm1|bat|cmd|lua|go|rs)$/i
const EXCERPT_MAX = 200

function excerptOf(text: string): string {
  const t = text.trim()
  return t.length > EXCERPT_MAX ? `${t.slice(0, EXCERPT_MAX - 1)}…` : t
}

/** Each line's context: 'code' inside ``` / ~~~ fences of Markdown and everywhere in a script file. */
export function lineContexts(file: string, lines: readonly string[]): LineContext[] {
  if (SCRIPT_EXT.test(file)) return lines.map(() => 'code')
  const out: LineContext[] = []
  let fence: string | null = null
  for (const line of lines) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line)
    if (fence === null && m) {
      fence = m[1]!
      out.push('code')
    } else if (fence !== null) {
      out.push('code')
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null
    } else out.push('prose')
  }
  return out
}

function hiddenFindings(skill: string, file: string, lines: readonly string[], runs: readonly HiddenRun[]): AuditFinding[] {
  const byLine = new Map<number, HiddenRun[]>()
  for (const r of runs) byLine.set(r.line, [...(byLine.get(r.line) ?? []), r])
  const out: AuditFinding[] = []
  for (const [line, lineRuns] of byLine) {
    const excerpt = excerptOf(revealLine(lines[line] ?? '', lineRuns))
    for (const kind of ['tag', 'zero-width', 'bidi'] as const) {
      const ofKind = lineRuns.filter((r) => r.kind === kind)
      if (ofKind.length === 0) continue
      const chars = ofKind.reduce((n, r) => n + r.end - r.start, 0)
      let severity: AuditSeverity
      let message: string
      if (kind === 'tag') {
        const said = ofKind.map((r) => r.decoded).join(' ')
        severity = 'high'
        message = `invisible Unicode tag characters (U+E0000 block) spell text the agent reads and a person does not see: "${said.slice(0, 300)}"`
      } else if (kind === 'zero-width') {
        const decoded = ofKind.find((r) => !r.decoded.startsWith('<'))
        severity = decoded || chars >= 8 ? 'high' : 'medium'
        message = decoded
          ? `zero-width characters encode hidden text: "${decoded.decoded.slice(0, 300)}"`
          : `${chars} zero-width character(s) (${[...new Set(ofKind.map((r) => r.decoded))].join(' ').slice(0, 80)}) hidden in the line; shown as ⟦…⟧ in the excerpt`
      } else {
        const override = ofKind.some((r) => [...lines[line]!.slice(r.start, r.end)].some((c) => BIDI_OVERRIDES.has(c.codePointAt(0)!)))
        severity = override ? 'high' : 'medium'
        message = override
          ? 'bidirectional override characters reverse how the line is shown: a person reads something else than the agent (and a shell) does'
          : 'bidirectional embedding characters change how the line is shown'
      }
      out.push({ skill, file, line: line + 1, rule: `hidden-text`, severity, message, excerpt })
    }
  }
  return out
}

/** Each rule with its hint as a global regex (searched through a whole text, resumed at the next line). */
const GLOBAL_HINTS = LINE_RULES.map((r) => [r, new RegExp(r.hint.source, r.hint.flags.includes('g') ? r.hint.flags : `${r.hint.flags}g`)] as const)

/** Start offset of every line (for mapping a match position to its line). */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * Findings of one text file of a skill. Each rule's hint is searched over the whole text (one regex pass), and
 * only the lines it hits are checked: most lines of a skill are never looked at twice.
 */
export function auditText(skill: string, file: string, text: string): AuditFinding[] {
  const lines = text.split('\n')
  const findings = hiddenFindings(skill, file, lines, findHiddenRuns(text))
  let starts: number[] | null = null
  let contexts: LineContext[] | null = null
  for (const [rule, hint] of GLOBAL_HINTS) {
    hint.lastIndex = 0
    let lastLine = -1
    for (let m = hint.exec(text); m !== null; m = hint.exec(text)) {
      starts ??= lineStarts(text)
      const i = lineAt(starts, m.index)
      if (i === lastLine) continue
      lastLine = i
      const line = lines[i]!
      if (line.length <= 20_000) {
        // longer lines are minified code or data: no instruction a person would read
        contexts ??= lineContexts(file, lines)
        const around = (): string => lines.slice(Math.max(0, i - 2), i + 3).join('\n')
        const hit = rule.check(line, contexts[i]!, around)
        if (hit) findings.push({ skill, file, line: i + 1, rule: hit.rule, severity: hit.severity, message: hit.message, excerpt: excerptOf(line) })
      }
      hint.lastIndex = (starts[i + 1] ?? text.length + 1) // on to the next line
      if (hint.lastIndex > text.length) break
    }
  }
  return findings
}
