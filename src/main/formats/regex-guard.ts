/**
 * Trigger patterns come from files an agent or a stranger wrote, so a pattern is checked before use and
 * every match is time-bounded.
 *
 * Choice: a static check rejects the classic catastrophic shapes (a repeated group that itself repeats,
 * `(a+)+`, `(a*)*`, `(a|a)*`, `(.*a){2,}`) and long patterns; then each match runs through `node:vm` with a
 * timeout. V8 checks for interrupts inside its backtracking regex engine, so `vm`'s timeout stops a runaway
 * match in the same thread (no worker start-up cost) and we report it as an error instead of hanging.
 */
import vm from 'node:vm'
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'

/** Longest trigger pattern accepted. */
export const MAX_PATTERN_CHARS = 500
/** Longest text matched against patterns (a question, not a document). */
export const MAX_SUBJECT_CHARS = 10_000
/** Default time budget for one match. */
export const DEFAULT_MATCH_TIMEOUT_MS = 50

/** A refused pattern says why in words (`reason`) and by code (`problem`). */
export type PatternCheck = { ok: true; regex: RegExp } | { ok: false; reason: string; problem: CodedText }

function refused(problem: CodedText): PatternCheck {
  return { ok: false, reason: problem.text, problem }
}

interface Frame {
  /** A variable-count quantifier appears somewhere inside this group. */
  varQuant: boolean
  /** The top-level alternatives of this group, as raw text. */
  alternatives: string[]
  start: number
  /** Where the current alternative began. */
  altStart: number
}

/** Reads a quantifier at `i`; returns its length and whether its count varies (min ≠ max, max > 1), or null. */
function readQuantifier(p: string, i: number): { len: number; variable: boolean } | null {
  const c = p[i]
  let len: number
  let variable: boolean
  if (c === '*' || c === '+') {
    len = 1
    variable = true
  } else if (c === '?') {
    len = 1
    variable = false
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i))
    if (!m) return null
    len = m[0].length
    const min = Number(m[1])
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])
    variable = max > 1 && max !== min
  } else {
    return null
  }
  if (p[i + len] === '?' || p[i + len] === '+') len++
  return { len, variable }
}

/** True when two branches of a repeated alternation could match the same text (conservative). */
function branchesOverlap(alternatives: string[]): boolean {
  const firsts: string[] = []
  for (const alt of alternatives) {
    const first = alt[0]
    if (first === undefined || '.\\[('.includes(first)) return true
    firsts.push(first.toLowerCase())
  }
  return new Set(firsts).size !== firsts.length
}

/** Static check for the shapes that make a backtracking engine take exponential time. Returns a reason or null. */
export function findCatastrophicShape(p: string): string | null {
  return catastrophicShape(p)?.text ?? null
}

/** findCatastrophicShape's reason by code. */
function catastrophicShape(p: string): CodedText | null {
  const stack: Frame[] = [{ varQuant: false, alternatives: [], start: 0, altStart: 0 }]
  let i = 0
  while (i < p.length) {
    const c = p[i]!
    if (c === '\\') {
      i += 2
    } else if (c === '[') {
      i++
      if (p[i] === '^') i++
      if (p[i] === ']') i++
      while (i < p.length && p[i] !== ']') i += p[i] === '\\' ? 2 : 1
      i++
    } else if (c === '(') {
      const start = i
      i++
      const prefix = /^\?(:|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(p.slice(i))
      if (prefix) i += prefix[0].length
      stack.push({ varQuant: false, alternatives: [], start, altStart: i })
      continue
    } else if (c === ')') {
      const frame = stack.pop()
      if (!frame || stack.length === 0) return null // unbalanced: the RegExp compiler reports it
      frame.alternatives.push(p.slice(frame.altStart, i))
      i++
      const q = readQuantifier(p, i)
      if (q?.variable) {
        if (frame.varQuant) {
          return coded('regex.nested_quantifier', { group: p.slice(frame.start, i) })
        }
        if (frame.alternatives.length > 1 && branchesOverlap(frame.alternatives)) {
          return coded('regex.overlapping_alternation', { group: p.slice(frame.start, i) })
        }
      }
      const parent = stack[stack.length - 1]!
      parent.varQuant ||= frame.varQuant || Boolean(q?.variable)
      if (q) i += q.len
      continue
    } else if (c === '|') {
      const frame = stack[stack.length - 1]!
      frame.alternatives.push(p.slice(frame.altStart, i))
      i++
      frame.altStart = i
      continue
    } else {
      i++
    }
    const q = readQuantifier(p, i)
    if (q) {
      if (q.variable) stack[stack.length - 1]!.varQuant = true
      i += q.len
    }
  }
  return null
}

/** Java/Kotlin inline flags JavaScript has an equivalent for (`i` is always on; `u`, `U`, `d` change nothing here). */
const INLINE_FLAGS = /^\?([imsuxdU]*)(?:-([imsuxdU]*))?([):])/

/**
 * Trigger patterns are often written for Java or Kotlin (sman's own `Regex`), where inline flags such as
 * `(?i)redis|缓存`, `(?is)` or `(?i:…)` are common; JavaScript (Node 20) rejects them as "Invalid group".
 * Rewrites them into the equivalent JavaScript source and flags: `(?i)` is dropped (matching is always
 * case-insensitive), `(?s)`/`(?m)` become the `s`/`m` flags (for the whole pattern: JavaScript cannot scope
 * them), `(?x)` drops unescaped whitespace and `#` comments, `(?flags:…)` becomes `(?:…)`. Turning a flag off
 * (`(?-i)`) keeps the pattern's other flags. Anything else is left for the compiler to judge.
 */
export function translateInlineFlags(pattern: string): { source: string; flags: string } {
  const flags = new Set<string>()
  let out = ''
  let extended = false
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      out += pattern.slice(i, i + 2)
      i++
      continue
    }
    if (inClass) {
      if (c === ']') inClass = false
      out += c
      continue
    }
    if (c === '[') {
      inClass = true
      out += c
      continue
    }
    if (extended && /\s/.test(c)) continue
    if (extended && c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++
      continue
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const m = INLINE_FLAGS.exec(pattern.slice(i + 1))
      if (m && (m[1] !== '' || m[2] !== undefined)) {
        for (const f of m[1]!) {
          if (f === 's' || f === 'm') flags.add(f)
          if (f === 'x') extended = true
        }
        if (m[2]?.includes('x')) extended = false
        out += m[3] === ':' ? '(?:' : ''
        i += m[0].length
        continue
      }
    }
    out += c
  }
  return { source: out, flags: [...flags].sort().join('') }
}

/** Validates a trigger pattern: length cap, compiles as a JavaScript regex (case-insensitive), no catastrophic shape. */
export function checkPattern(pattern: string): PatternCheck {
  if (pattern.length === 0) {
    return refused(coded('regex.empty'))
  }
  if (pattern.length > MAX_PATTERN_CHARS) {
    return refused(coded('regex.too_long', { length: pattern.length, max: MAX_PATTERN_CHARS }))
  }
  const { source, flags } = translateInlineFlags(pattern)
  let regex: RegExp
  try {
    regex = new RegExp(source, 'i' + flags)
  } catch (err) {
    // V8 says "Invalid regular expression: /…/i: why"; say it once, with the pattern as written.
    const why = (err as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '')
    return refused(coded('regex.invalid', { why }))
  }
  // The shape check reads the translated source: the one that runs.
  const shape = catastrophicShape(source)
  if (shape) return refused(shape)
  return { ok: true, regex }
}

/** A match that ran out of time: its words, and their code (regex.timeout) beside them. */
export class RegexTimeoutError extends Error {
  readonly messageCode: MessageCode
  readonly params: MessageParams

  constructor(readonly pattern: string, readonly timeoutMs: number) {
    const why = coded('regex.timeout', { pattern: JSON.stringify(pattern), ms: timeoutMs })
    super(why.text)
    this.name = 'RegexTimeoutError'
    this.messageCode = why.messageCode
    this.params = why.params
  }
}

const RUN = new vm.Script('(() => { const m = new RegExp(source, flags).exec(text); return m ? String(m[0]) : null })()')
const RUN_MANY = new vm.Script('sources.map((s, i) => { const m = new RegExp(s, flagList[i]).exec(text); return m ? String(m[0]) : null })')

/** A reusable vm context for time-bounded matches (creating one per match costs ~0.5 ms). */
export class RegexSandbox {
  private readonly context = vm.createContext({ source: '', flags: '', text: '' })

  /**
   * Runs `regex.exec(text)` with a time limit (see the module comment). Returns the matched text or null;
   * throws RegexTimeoutError when the limit is hit. Does NOT run the static check: use `checkPattern` first.
   */
  exec(regex: RegExp, text: string, timeoutMs = DEFAULT_MATCH_TIMEOUT_MS): string | null {
    Object.assign(this.context, { source: regex.source, flags: regex.flags.replace('g', ''), text: text.slice(0, MAX_SUBJECT_CHARS) })
    try {
      const result: unknown = RUN.runInContext(this.context, { timeout: timeoutMs })
      return typeof result === 'string' ? result : null
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new RegexTimeoutError(regex.source, timeoutMs)
      }
      throw err
    }
  }
}

/**
 * Matches many regexes against one text. All run in one sandbox call bounded by `timeoutMs` (a vm timeout
 * starts a watchdog thread per call, so one call for all is much cheaper); only when that call runs out of
 * time are they retried one by one, so the slow pattern(s) are named. Returns per regex the matched text,
 * null, or the RegexTimeoutError.
 */
export function execManyWithTimeout(regexes: RegExp[], text: string, timeoutMs = DEFAULT_MATCH_TIMEOUT_MS, sandbox = new RegexSandbox()): (string | null | RegexTimeoutError)[] {
  if (regexes.length === 0) return []
  const context = vm.createContext({ sources: regexes.map((r) => r.source), flagList: regexes.map((r) => r.flags.replace('g', '')), text: text.slice(0, MAX_SUBJECT_CHARS) })
  try {
    const result: unknown = RUN_MANY.runInContext(context, { timeout: timeoutMs })
    if (Array.isArray(result)) return result.map((v) => (typeof v === 'string' ? v : null))
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err
  }
  return regexes.map((regex) => {
    try {
      return sandbox.exec(regex, text, timeoutMs)
    } catch (err) {
      if (err instanceof RegexTimeoutError) return err
      throw err
    }
  })
}

/** One time-bounded match in a fresh sandbox (see RegexSandbox.exec). */
export function execWithTimeout(regex: RegExp, text: string, timeoutMs = DEFAULT_MATCH_TIMEOUT_MS): string | null {
  return new RegexSandbox().exec(regex, text, timeoutMs)
}
