/**
 * Incremental parser for AGIAgent logs (`logs/manager.out`, `logs/agent_*.out`).
 *
 * Fed raw bytes in any chunking (so it streams and tolerates invalid UTF-8 / NUL bytes), it scans for a
 * handful of byte markers with native `Buffer.indexOf` and decodes only the text around them, which is what
 * keeps multi-GB logs fast. Over-long lines are never held whole: capture modes cap what they keep.
 * Pure: no I/O, never throws on any input.
 */
import type { AgentMessage, ToolCall } from '../../shared/types'
import { idsFromQueryResult, isSkillQuery } from './skill-refs'

/** What one log file says, before it is merged into a task trace. */
export interface LogParse {
  /** `manager` or the sub-agent id (`agent_001`…). */
  agent: string
  requirements: string[]
  /** Byte offset of each requirement's marker in the log (same order as `requirements`). */
  requirementOffsets: number[]
  /** Requirements (after the first) with no completion marker in the 200 characters before them, plus user stops. */
  interruptions: number
  /** A completion marker was seen after the last requirement (or anywhere when there is none). */
  completed: boolean
  /** The last task segment was stopped by the user (`🛑 … stopped by user`). */
  stoppedByUser: boolean
  toolCalls: ToolCall[]
  /** Every tool call the log holds; more than `toolCalls.length` when the cap (maxToolCalls) was reached. */
  toolCallsTotal: number
  errors: string[]
  /** Byte offset of each error's line or block in the log (same order as `errors`). */
  errorOffsets: number[]
  /** The skill ids each `query_skill` call's result listed, by the call's byte offset. */
  queryResults: { offset: number; ids: string[] }[]
  agentMessages: AgentMessage[]
  preferences: string[]
  bytes: number
}

/** Caps that keep memory bounded whatever the log holds. */
export const PARSER_LIMITS = {
  requirementChars: 4000,
  requirementLines: 40,
  paramChars: 4000,
  invokeBytes: 256 * 1024,
  errorChars: 1000,
  lineBytes: 4096,
  maxToolCalls: 20_000,
  maxErrors: 2_000,
  maxMessages: 10_000,
  interruptWindowChars: 200,
  /** How far after a `query_skill` call its result is looked for (it ends at the next requirement). */
  queryResultBytes: 64 * 1024,
  maxQueryResults: 2_000
} as const

const enc = (s: string): Buffer => Buffer.from(s, 'utf8')

const N_INVOKE = enc('<invoke')
const N_INVOKE_END = enc('</invoke>')
const N_NEWLINE_REQ = enc('\nReceived user requirement')

type Kind = 'req' | 'invoke' | 'errfb' | 'cross' | 'tc' | 'wf' | 'sent' | 'read' | 'check' | 'said' | 'stop'

/**
 * A marker is found through an anchor: a part of it whose first byte is rare in logs. Node's search runs
 * `memchr` on the needle's first byte, so a common first byte (`E`, `s`, the U+2xxx lead byte E2…) means a
 * restart per false candidate; anchoring on `DBACK`, `PLETED`, `by user` keeps every pass near memchr speed.
 * The bytes before the anchor (`prefixes`) and after it (`nextBytes`) are checked at each candidate.
 */
interface Needle {
  kind: Kind
  anchor: Buffer
  /** Accepted bytes right before the anchor (all of the same length); empty = the anchor starts the marker. */
  prefixes: Buffer[]
  /** When set, the byte right after the anchor must be one of these (and picks the kind). */
  nextBytes?: Map<number, Kind>
  /** Whole marker length (prefix + anchor + next byte). */
  length: number
}

const needle = (kind: Kind, anchor: string | Buffer, prefixes: string[] = [], nextBytes?: Map<number, Kind>): Needle => {
  const a = typeof anchor === 'string' ? enc(anchor) : anchor
  const pre = prefixes.map(enc)
  return { kind, anchor: a, prefixes: pre, nextBytes, length: (pre[0]?.length ?? 0) + a.length + (nextBytes ? 1 : 0) }
}

const NEEDLES: Needle[] = [
  needle('req', 'Received user requirement'),
  needle('invoke', N_INVOKE),
  needle('errfb', 'DBACK', ['ERROR FEE']),
  needle('cross', '❌'),
  needle('tc', 'PLETED', ['TASK_COM', 'TASK COM']),
  needle('wf', 'Workflow completed!'),
  needle('sent', '📤'),
  needle('read', '📬'),
  needle('check', '✅'),
  needle('said', '💬'),
  needle('stop', 'by user', ['stopped '])
]

/** The full marker texts: a requirement's continuation line holding one of them belongs to the scanner. */
const MARKERS: Buffer[] = [
  'Received user requirement', '<invoke', 'ERROR FEEDBACK', '❌', 'TASK_COMPLETED', 'TASK COMPLETED',
  'Workflow completed!', '📤', '📬', '✅', '💬', 'stopped by user'
].map(enc)

/** Markers are looked for in windows this size, so the several passes over a window run from the CPU cache. */
const WINDOW = 64 * 1024
const MAX_MARKER = Math.max(...NEEDLES.map((n) => n.length))
const NO_HIT = -1
const UNKNOWN = -2

/** Bytes kept back at a chunk's end so a marker split across chunks is still found. */
const KEEP = 64
/** Bytes of earlier stream kept for looking back (line starts, the interruption window). */
const HISTORY = 1024
const NL = 0x0a
const READ_SCRATCH_BYTES = 1024 * 1024 + 64 * 1024
/** Shared join buffer (see `feed`). */
let scratch = Buffer.allocUnsafe(READ_SCRATCH_BYTES)
const EMPTY = Buffer.alloc(0)
/** Returned by a capture that must wait for more bytes. */
const STALL = -1

const ERRORISH = /error|错误|fail|失败|exception|traceback/i
/**
 * Lines that end a multi-line requirement: what AGIAgent prints right after it (GUI context headers, the
 * initialisation notice in Chinese or English, agent-id notes), any line opening with an emoji or symbol
 * (`💬`, `🏷️`, `🧠`…), a tag (`<invoke`) or a rule. A user's own continuation line is plain text.
 */
const REQ_STOP_PREFIX =
  /^\s*(?:Currently selected directory|Previous conversation context|workspace subdirectory|Initiali[sz](?:ation|ing|ed)\b|Analy[sz]ing (?:the )?requirement|Using agent ID|Agent ID\b|初始化|正在分析|我正在分析|<\/?[A-Za-z!?]|\p{Extended_Pictographic}|[\u2600-\u27BF]|[-=*#]{3,}\s*$)/iu
/**
 * What AGIAgent itself prints right after a requirement (a blank line before the GUI headers, the headers, the
 * initialisation notice, the agent-id note, also behind an emoji). Only a requirement whose lines end at one
 * of these keeps its continuation lines: the agent's own text never comes before them, so plain lines that
 * end anywhere else (`…merge sort to sort.py` / `ok working on it` / `<invoke…`) are the agent talking.
 */
const REQ_END_HEADER =
  /^\s*(?:(?:\p{Extended_Pictographic}|[\u2600-\u27BF])\uFE0F?\s*)?(?:Currently selected directory|Previous conversation context|workspace subdirectory|Initiali[sz](?:ation|ing|ed)\b|Analy[sz]ing (?:the )?requirement|Using agent ID|Agent ID\b|AGIAgentClient using agent ID|初始化|正在分析|我正在分析)/iu
/** A requirement's continuation line never holds another marker (that line belongs to the scanner). */
const CONTINUATION_MAX_BYTES = 2000

type Mode =
  | { kind: 'idle' }
  | { kind: 'req'; text: string; lines: number; start: number; window: string; offset: number; first: string; confirmed: boolean }
  | { kind: 'invoke'; parts: Buffer[]; size: number; truncated: boolean; at: number }
  | { kind: 'errfb'; text: string; lines: number; offset: number }
  /** After a `query_skill` call: its result is read (without consuming it) for the skill ids it returned. */
  | { kind: 'qpeek'; offset: number }
  | { kind: 'line'; hit: Kind; parts: Buffer[]; at: number; end: number }

const IDLE: Mode = { kind: 'idle' }

/** Streaming state machine over one log file. */
export class AgiAgentLogParser {
  private readonly out: LogParse
  private mode: Mode = IDLE
  /** Unprocessed bytes carried to the next feed (at most KEEP, or an unfinished capture). */
  private carry: Buffer = EMPTY
  /** Per needle: its next marker start in the current window (NO_HIT / UNKNOWN). */
  private readonly next = new Array<number>(NEEDLES.length).fill(UNKNOWN)
  /** The last HISTORY bytes already processed, for looking back. */
  private history: Buffer = Buffer.alloc(0)
  /** Stream offset of `carry[0]` / the start of the buffer being processed. */
  private base = 0
  private completedSinceReq = false
  private sawRequirement = false
  private segmentStopped = false
  private anyCompletion = false
  private finished = false

  constructor(agent = 'manager') {
    this.out = {
      agent,
      requirements: [],
      requirementOffsets: [],
      interruptions: 0,
      completed: false,
      stoppedByUser: false,
      toolCalls: [],
      toolCallsTotal: 0,
      errors: [],
      errorOffsets: [],
      queryResults: [],
      agentMessages: [],
      preferences: [],
      bytes: 0
    }
  }

  /** Feeds the next bytes of the log (any chunk size, any boundaries). */
  feed(chunk: Uint8Array | string): void {
    if (this.finished) {
      return
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    this.out.bytes += bytes.length
    if (this.carry.length === 0) {
      this.run(bytes)
      return
    }
    // The carry (a few bytes, or an unfinished capture) is joined with the chunk's head only, in a shared
    // scratch buffer (processing is synchronous and keeps no view of it); once the scan is past the carry,
    // the rest of the chunk is processed in place: a multi-GB log is never copied.
    const head = Math.min(bytes.length, Math.max(WINDOW, this.carry.length * 2))
    const need = this.carry.length + head
    if (scratch.length < need) {
      scratch = Buffer.allocUnsafe(Math.max(need, scratch.length * 2))
    }
    const carried = this.carry.length
    this.carry.copy(scratch, 0)
    bytes.copy(scratch, carried, 0, head)
    const joined = scratch.subarray(0, need)
    if (head === bytes.length) {
      this.run(joined)
      return
    }
    const pos = this.process(joined, false)
    if (pos >= carried) {
      this.advance(joined, pos)
      this.carry = EMPTY
      this.run(bytes.subarray(pos - carried))
      return
    }
    // A capture still waits for more than the head (a long line): join the whole chunk (rare).
    const all = Buffer.concat([this.carry, bytes])
    this.run(all)
  }

  /** Ends the stream: open captures are closed (an unterminated `<invoke>` is kept as partial). */
  finish(): LogParse {
    if (!this.finished) {
      this.remember(this.carry, this.process(this.carry, true))
      this.closeMode(true)
      // a query cut off by the end of the log has no result to read
      this.mode = IDLE
      this.finished = true
      this.out.completed = this.sawRequirement ? this.completedSinceReq : this.anyCompletion
      this.out.stoppedByUser = this.segmentStopped && !this.completedSinceReq
    }
    return this.out
  }

  // ---------------------------------------------------------------- scanning

  /** Processes `data` and keeps what is left for the next feed. */
  private run(data: Buffer): void {
    this.remember(data, this.process(data, false))
  }

  /** Scans `data` for markers; returns how far it got (the rest waits for more bytes). */
  private process(data: Buffer, final: boolean): number {
    // Positions >= limit are not decided now (a marker or terminator may continue in the next chunk).
    const limit = final ? data.length : Math.max(0, data.length - KEEP)
    const next = this.next
    let pos = 0
    while (pos < limit) {
      // One window at a time: each needle's next hit in it is cached until passed.
      const winEnd = Math.min(limit, pos + WINDOW)
      const view = data.subarray(0, Math.min(data.length, winEnd + MAX_MARKER))
      next.fill(UNKNOWN)
      while (pos < winEnd) {
        if (this.mode.kind !== 'idle') {
          const after = this.continueMode(data, pos, limit, final)
          if (after === STALL) {
            // The capture needs the rest of a line: everything from pos is carried, so rebase its offsets.
            if (this.mode.kind === 'line') {
              this.mode.end -= this.mode.at
              this.mode.at = 0
            }
            return pos
          }
          pos = after
          continue
        }
        let best = NO_HIT
        let bestIdx = -1
        for (let i = 0; i < NEEDLES.length; i++) {
          let at = next[i]!
          if (at === UNKNOWN || (at !== NO_HIT && at < pos)) {
            at = findMarker(view, NEEDLES[i]!, pos)
            next[i] = at
          }
          if (at !== NO_HIT && (best === NO_HIT || at < best)) {
            best = at
            bestIdx = i
          }
        }
        if (best === NO_HIT || best >= winEnd) {
          pos = winEnd
          break
        }
        const n = NEEDLES[bestIdx]!
        const kind = n.nextBytes ? n.nextBytes.get(view[best + n.length - 1]!)! : n.kind
        pos = this.onHit(kind, data, best, best + n.length, limit)
      }
    }
    return pos
  }

  /** Records `data[0, pos)` as processed (history for looking back) without keeping a carry. */
  private advance(data: Buffer, pos: number): void {
    const done = data.subarray(0, pos)
    if (done.length >= HISTORY) {
      this.history = Buffer.from(done.subarray(done.length - HISTORY))
    } else if (done.length > 0) {
      const joined = Buffer.concat([this.history, done])
      this.history = joined.subarray(Math.max(0, joined.length - HISTORY))
    }
    this.base += pos
  }

  /** Keeps the unprocessed tail as carry and the processed tail as history. */
  private remember(data: Buffer, pos: number): void {
    this.advance(data, pos)
    this.carry = pos < data.length ? Buffer.from(data.subarray(pos)) : EMPTY
  }

  /** Up to `n` bytes of the stream just before `at` (from history and data). */
  private before(data: Buffer, at: number, n: number): Buffer {
    if (at >= n) {
      return data.subarray(at - n, at)
    }
    const fromHistory = this.history.subarray(Math.max(0, this.history.length - (n - at)))
    return Buffer.concat([fromHistory, data.subarray(0, at)])
  }

  /** The text from the start of the line up to `at` (at most lineBytes back). */
  private linePrefix(data: Buffer, at: number): string {
    const back = this.before(data, at, PARSER_LIMITS.lineBytes)
    const nl = back.lastIndexOf(NL)
    return this.text(nl === -1 ? back : back.subarray(nl + 1))
  }

  private text(bytes: Uint8Array, start = 0, end = bytes.length): string {
    // A fresh decode per piece: a cut multi-byte char becomes U+FFFD instead of leaking into the next piece.
    let t = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8', start, end)
    if (t.includes('\u0000')) {
      t = t.replaceAll('\u0000', '')
    }
    return t.endsWith('\r') ? t.slice(0, -1) : t
  }

  // ---------------------------------------------------------------- markers

  private onHit(kind: Kind, data: Buffer, at: number, end: number, limit: number): number {
    switch (kind) {
      case 'req': {
        const window = this.text(this.before(data, at, PARSER_LIMITS.interruptWindowChars * 4))
        this.mode = { kind: 'req', text: '', lines: 0, start: end, window, offset: this.base + at, first: '', confirmed: false }
        return end
      }
      case 'invoke': {
        // `<invoke` must be a tag (`<invoke ` or `<invoke>`), not `<invoked…`.
        const c = data[end]
        if (c !== undefined && c !== 0x20 && c !== 0x3e && c !== 0x09 && c !== NL && c !== 0x0d) {
          return end
        }
        this.mode = { kind: 'invoke', parts: [], size: 0, truncated: false, at: this.base + at }
        return at
      }
      case 'errfb': {
        const prefix = this.linePrefix(data, at)
        if (prefix.endsWith('END OF ')) {
          return end
        }
        this.mode = { kind: 'errfb', text: (prefix.trim() + ' ERROR FEEDBACK').trim(), lines: 0, offset: this.base + at }
        return end
      }
      case 'tc': {
        if (this.isCompletionMarker(data, end)) {
          this.markCompleted()
        }
        return end
      }
      case 'wf':
        this.markCompleted()
        return end
      case 'check':
        // Most `✅` lines are tool results; only routed messages and completions count. When the line's end
        // is already here, a cheap byte-level look decides without decoding it.
        if (this.isIdleCheckLine(data, at, limit)) {
          return end
        }
        this.mode = { kind: 'line', hit: kind, parts: [], at, end }
        return at
      default:
        this.mode = { kind: 'line', hit: kind, parts: [], at, end }
        return at
    }
  }

  /** A `✅` line (as far as the line capture would read it) that holds neither `routed from` nor `completed`. */
  private isIdleCheckLine(data: Buffer, at: number, limit: number): boolean {
    const cap = at + PARSER_LIMITS.lineBytes
    const max = Math.min(limit, cap)
    // A plain byte loop: these lines are short, and a native search or a decode costs more to call than to run.
    // Anything that may matter (the words, a NUL that decoding would drop) goes to the line capture.
    for (let i = at; i < max; i++) {
      const c = data[i]
      if (c === NL) {
        return true
      }
      if (c === 0 || (c === 0x63 && bytesAt(data, i, W_COMPLETED, max)) || (c === 0x72 && bytesAt(data, i, W_ROUTED, max))) {
        return false
      }
    }
    // Cut at the line cap: decided; cut by the undecided tail: the line capture waits for the rest.
    return max === cap
  }

  /** `TASK_COMPLETED` counts when it is the signal (`TASK_COMPLETED:` or alone at a line end), not a mention in prose. */
  private isCompletionMarker(data: Buffer, end: number): boolean {
    let i = end
    while (i < data.length && (data[i] === 0x20 || data[i] === 0x09)) {
      i++
    }
    if (i >= data.length) {
      return true
    }
    const c = data[i]!
    if (c === 0x3a || c === NL || c === 0x0d || c === 0x21) {
      return true
    }
    // Full-width colon U+FF1A is EF BC 9A.
    return c === 0xef && data[i + 1] === 0xbc && data[i + 2] === 0x9a
  }

  private markCompleted(): void {
    this.completedSinceReq = true
    this.anyCompletion = true
  }

  // ---------------------------------------------------------------- capture modes

  /** Advances the current capture; returns the new position (the mode may end and become idle). */
  private continueMode(data: Buffer, pos: number, limit: number, final: boolean): number {
    const mode = this.mode
    switch (mode.kind) {
      case 'invoke':
        return this.continueInvoke(mode, data, pos, limit)
      case 'qpeek': {
        // The result is text after the call; it ends at the next requirement, or is read up to a bound.
        const max = pos + PARSER_LIMITS.queryResultBytes
        let end = data.indexOf(N_NEWLINE_REQ, pos)
        if (end === -1 || end > max) {
          if (data.length < max && !final) {
            return STALL
          }
          end = Math.min(max, data.length)
        }
        this.mode = IDLE
        const ids = idsFromQueryResult(queryResultText(this.text(data, pos, end)))
        if (ids.length) {
          this.out.queryResults.push({ offset: mode.offset, ids })
        }
        return pos
      }
      case 'line': {
        // Read the marker's line without consuming it: later markers on the same line are still scanned.
        const nl = data.indexOf(NL, mode.at)
        const cap = mode.at + PARSER_LIMITS.lineBytes
        if ((nl === -1 || nl >= limit) && !final && data.length < cap + KEEP) {
          return STALL
        }
        const stop = Math.min(nl === -1 ? data.length : nl, cap, data.length)
        this.mode = IDLE
        this.onLine(mode.hit, this.text(data, mode.at, stop), data, mode.at)
        return mode.end
      }
      case 'req':
      case 'errfb': {
        // Line by line: a line is decided only when it is complete (or the stream ends).
        const nl = data.indexOf(NL, pos)
        if (nl === -1 || nl >= limit) {
          if (!final && data.length - pos < PARSER_LIMITS.lineBytes * 4) {
            return STALL
          }
          // Over-long line or end of stream. A continuation line this long is not part of the capture;
          // a first line is taken capped, and the rest of it is scanned for markers as usual.
          if (mode.lines > 0) {
            this.closeMode(false)
            return pos
          }
          const take = Math.min(limit, pos + PARSER_LIMITS.lineBytes)
          this.onCaptureLine(this.text(data.subarray(pos, take)), true)
          this.closeMode(false)
          return take
        }
        const lineBytes = data.subarray(pos, Math.min(nl, pos + PARSER_LIMITS.requirementChars * 4))
        if (mode.lines > 0 && (nl - pos > CONTINUATION_MAX_BYTES || MARKERS.some((m) => lineBytes.includes(m)))) {
          this.closeMode(false)
          return pos
        }
        const ended = this.onCaptureLine(this.text(lineBytes), false)
        if (ended === 'before') {
          this.closeMode(false)
          return pos
        }
        if (ended === 'after') {
          this.closeMode(false)
        }
        return nl + 1
      }
      default:
        return limit
    }
  }

  /** One complete line in a requirement / error-feedback capture: does the capture end before or after it? */
  private onCaptureLine(rawLine: string, last: boolean): 'before' | 'after' | 'no' {
    const mode = this.mode
    const line = rawLine.replaceAll('\u0000', '').replace(/\r$/, '')
    if (mode.kind === 'req') {
      if (mode.lines === 0) {
        mode.text = line.replace(/^[:：\s]+/, '')
        mode.first = mode.text
        mode.lines = 1
        return last ? 'after' : 'no'
      }
      if (line.trim() === '' || REQ_END_HEADER.test(line)) {
        mode.confirmed = true
        return 'before'
      }
      if (REQ_STOP_PREFIX.test(line) || mode.lines >= PARSER_LIMITS.requirementLines) {
        return 'before'
      }
      mode.text += '\n' + line
      mode.lines++
      return mode.text.length >= PARSER_LIMITS.requirementChars || last ? 'after' : 'no'
    }
    if (mode.kind === 'errfb') {
      if (mode.lines === 0) {
        mode.text = (mode.text + line).trim()
        mode.lines = 1
        return last ? 'after' : 'no'
      }
      if (line.trim() === '' || line.includes('END OF ERROR FEEDBACK')) {
        return line.includes('END OF ERROR FEEDBACK') ? 'after' : 'before'
      }
      if (mode.text.length < PARSER_LIMITS.errorChars) {
        mode.text += '\n' + line
      }
      mode.lines++
      return mode.lines >= 50 || last ? 'after' : 'no'
    }
    return 'after'
  }

  private continueInvoke(
    mode: Extract<Mode, { kind: 'invoke' }>,
    data: Buffer,
    pos: number,
    limit: number
  ): number {
    const end = data.indexOf(N_INVOKE_END, pos)
    if (mode.size === 0 && end !== -1 && end < limit && end + N_INVOKE_END.length - pos <= PARSER_LIMITS.invokeBytes) {
      // The common case: the whole block is in this chunk, decoded straight from it (no copy). Cut-off markers
      // inside it are looked for in the decoded text (ASCII survives decoding; a false alarm only takes the
      // exact byte path below).
      const stop = end + N_INVOKE_END.length
      const block = this.text(data, pos, stop)
      if (block.indexOf('<invoke', 1) === -1 && !block.includes('\nReceived user requirement')) {
        this.mode = IDLE
        this.addToolCall(block, false, mode.at)
        return stop
      }
    }
    // A new `<invoke` or a new requirement before the end tag means this call was cut off. Both are looked
    // for only up to the end tag (or the decided part of the chunk), so each byte is searched once.
    const searchEnd = end !== -1 && end < limit ? end : limit
    const from = mode.size === 0 ? pos + 1 : pos
    // A marker starting before searchEnd may run past it: the window reaches a needle's length further.
    const window = data.subarray(0, Math.min(data.length, searchEnd + N_NEWLINE_REQ.length))
    const nextInvoke = from < searchEnd ? window.indexOf(N_INVOKE, from) : -1
    const nextReq = window.indexOf(N_NEWLINE_REQ, pos)
    let cut = -1
    for (const c of [nextInvoke, nextReq]) {
      if (c !== -1 && c < searchEnd && (cut === -1 || c < cut)) {
        cut = c
      }
    }
    if (cut !== -1) {
      this.appendCapped(mode, data.subarray(pos, cut), PARSER_LIMITS.invokeBytes)
      this.closeMode(true)
      return cut === nextReq ? cut + 1 : cut
    }
    if (end !== -1 && end < limit) {
      const stop = end + N_INVOKE_END.length
      if (mode.size === 0 && stop - pos <= PARSER_LIMITS.invokeBytes) {
        // The common case: the whole block is in this chunk, decoded straight from it (no copy).
        this.mode = IDLE
        this.addToolCall(this.text(data, pos, stop), false, mode.at)
        return stop
      }
      this.appendCapped(mode, data.subarray(pos, stop), PARSER_LIMITS.invokeBytes)
      this.closeMode(false)
      return stop
    }
    this.appendCapped(mode, data.subarray(pos, limit), PARSER_LIMITS.invokeBytes)
    return limit
  }

  private appendCapped(mode: { parts: Buffer[]; size: number; truncated?: boolean }, bytes: Buffer, cap: number): void {
    if (mode.size >= cap) {
      if ('truncated' in mode) {
        mode.truncated = true
      }
      mode.size += bytes.length
      return
    }
    const room = cap - mode.size
    mode.parts.push(Buffer.from(bytes.subarray(0, room)))
    if (bytes.length > room && 'truncated' in mode) {
      mode.truncated = true
    }
    mode.size += bytes.length
  }

  /** Turns the finished capture into trace entries. `partial` = the stream or block ended early. */
  private closeMode(partial: boolean): void {
    const mode = this.mode
    this.mode = IDLE
    switch (mode.kind) {
      case 'req':
        // Continuation lines only when AGIAgent's own header closed them (see REQ_END_HEADER).
        this.addRequirement((mode.confirmed ? mode.text : mode.first).trim(), mode.window, mode.offset)
        break
      case 'invoke': {
        if (mode.parts.length === 0) {
          break
        }
        this.addToolCall(this.text(Buffer.concat(mode.parts)), partial, mode.at)
        break
      }
      case 'errfb':
        this.addError(mode.text, mode.offset)
        break

      default:
        break
    }
  }

  private addToolCall(block: string, partial: boolean, offset: number): void {
    const call = parseInvokeBlock(block, this.out.agent)
    if (!call) {
      return
    }
    this.out.toolCallsTotal++
    if (this.out.toolCalls.length < PARSER_LIMITS.maxToolCalls) {
      if (partial) {
        call.partial = true
      }
      call.offset = offset
      this.out.toolCalls.push(call)
    }
    if (!partial && isSkillQuery(call.name) && this.out.queryResults.length < PARSER_LIMITS.maxQueryResults) {
      // callers set the mode to idle before adding a call; the result that follows is read next
      this.mode = { kind: 'qpeek', offset }
    }
  }

  private addRequirement(text: string, windowBefore: string, offset: number): void {
    {
      if (this.sawRequirement) {
        const chars = [...windowBefore]
        let window = chars.slice(-PARSER_LIMITS.interruptWindowChars).join('')
        // A completion belongs to the previous task only if it came after the previous requirement.
        const prevReq = window.lastIndexOf('Received user requirement')
        if (prevReq !== -1) {
          window = window.slice(prevReq + 1)
        }
        if (!this.segmentStopped && !hasCompletionMarker(window)) {
          this.out.interruptions++
        }
      }
      this.sawRequirement = true
      this.completedSinceReq = false
      this.segmentStopped = false
      this.out.requirements.push(text.slice(0, PARSER_LIMITS.requirementChars))
      this.out.requirementOffsets.push(offset)
      for (const p of extractPreferences(text)) {
        if (!this.out.preferences.includes(p)) {
          this.out.preferences.push(p)
        }
      }
    }
  }

  private addError(text: string, offset: number): void {
    const t = text.trim().slice(0, PARSER_LIMITS.errorChars)
    if (t && this.out.errors.length < PARSER_LIMITS.maxErrors) {
      this.out.errors.push(t)
      this.out.errorOffsets.push(offset)
    }
  }

  private addMessage(m: AgentMessage): void {
    if (this.out.agentMessages.length < PARSER_LIMITS.maxMessages) {
      m.agent = this.out.agent
      this.out.agentMessages.push(m)
    }
  }

  /** The marker's whole line: the text before it (dropped when long: noise from a multi-MB line) and after it. */
  private withPrefix(fromMarker: string, data: Buffer, at: number): string {
    const prefix = this.linePrefix(data, at)
    return ((prefix.length > 200 ? '' : prefix) + fromMarker).trim()
  }

  /** A whole line that holds one of the single-line markers. */
  private onLine(hit: Kind, fromMarker: string, data: Buffer, at: number): void {
    const line = fromMarker.trim()
    switch (hit) {
      case 'cross':
        if (ERRORISH.test(line)) {
          this.addError(this.withPrefix(fromMarker, data, at), this.base + at)
        }
        break
      case 'sent': {
        const m = /📤\s*Agent\s+(\S+)\s+sent message\s+(\S+)\s+to\s+(\S+)/u.exec(line)
        if (m) {
          this.addMessage({ kind: 'sent', from: m[1], id: m[2], to: m[3], text: line })
        }
        break
      }
      case 'read': {
        const m = /📬\s*Read\s+(\d+)\s+unread message/u.exec(line)
        if (m) {
          this.addMessage({ kind: 'read', count: Number(m[1]), to: this.out.agent, text: line })
        }
        break
      }
      case 'check': {
        const routed = line.includes('routed from') ? /✅\s*Message\s+(\S+)\s+routed from\s+(\S+)\s+to\s+(\S+)/u.exec(line) : null
        if (routed) {
          this.addMessage({ kind: 'routed', id: routed[1], from: routed[2], to: routed[3], text: line })
          break
        }
        if (!line.includes('completed')) {
          break
        }
        const full = this.withPrefix(fromMarker, data, at)
        const spawn = /^(?:(agent_\w+)\s+)?✅.*?\bspawn\s+(agent_\w+)\s+completed\b/u.exec(full) ??
          /^(agent_\w+)\s+✅.*\bcompleted\b/u.exec(full)
        if (spawn) {
          const id = spawn[2] ?? spawn[1]
          this.addMessage({ kind: 'spawn_completed', from: id, text: full })
        }
        break
      }
      case 'said':
        // The agent's own chat line (`💬 你好！…`): only where the marker opens the line, not a 💬 quoted inside
        // tool output. Its first line stands for the whole message.
        if (this.linePrefix(data, at).trim() === '' && line.length > '💬'.length) {
          this.addMessage({ kind: 'said', text: line })
        }
        break
      case 'stop':
        if (!this.segmentStopped && /🛑|execution stopped by user|task .* stopped by user/iu.test(this.withPrefix(fromMarker, data, at))) {
          this.segmentStopped = true
          this.out.interruptions++
        }
        break
      default:
        break
    }
  }
}

/**
 * The start of the next marker found through `n` at or after `from`, or NO_HIT. The anchor must lie wholly in
 * `view`; a marker whose prefix falls before `from` was already handled (or belongs to consumed text).
 */
function findMarker(view: Buffer, n: Needle, from: number): number {
  const pre = n.prefixes[0]?.length ?? 0
  let i = from + pre
  for (;;) {
    const a = view.indexOf(n.anchor, i)
    if (a === -1) {
      return NO_HIT
    }
    i = a + 1
    if (n.nextBytes) {
      const after = view[a + n.anchor.length]
      if (after === undefined) {
        return NO_HIT
      }
      if (!n.nextBytes.has(after)) {
        continue
      }
    }
    if (pre === 0) {
      return a
    }
    const start = a - pre
    for (const p of n.prefixes) {
      if (view.compare(p, 0, pre, start, a) === 0) {
        return start
      }
    }
  }
}

const W_COMPLETED = enc('completed')
const W_ROUTED = enc('routed from')

/** `word` occurs in `data` at `i`, wholly before `end`. */
function bytesAt(data: Buffer, i: number, word: Buffer, end: number): boolean {
  if (i + word.length > end) {
    return false
  }
  for (let k = 1; k < word.length; k++) {
    if (data[i + k] !== word[k]) {
      return false
    }
  }
  return true
}

/**
 * The part of the text after a `query_skill` call that is its result: from its `## Tool N: query_skill` header
 * to the next tool's header when the log has them; else up to the next tool call.
 */
export function queryResultText(after: string): string {
  const head = /(?:^|\n)#+\s*Tool\s*\d*\s*[:：]\s*query_skill\b|Tool:\s*query_skill\b/.exec(after)
  if (head) {
    const rest = after.slice(head.index + 1)
    const next = rest.search(/\n#+\s*Tool\s*\d+\s*[:：]/)
    return next === -1 ? rest : rest.slice(0, next)
  }
  const call = after.indexOf('<invoke')
  return call === -1 ? after : after.slice(0, call)
}

/** True when the text holds a completion signal (not a mere mention of the word). */
export function hasCompletionMarker(text: string): boolean {
  return /TASK[_ ]COMPLETED\s*(?:[:：!]|$)/m.test(text) || text.includes('Workflow completed!')
}

/** `记住：…` / `remember: …` statements in a user's requirement. */
export function extractPreferences(text: string): string[] {
  const found: string[] = []
  const re = /(?:记住|請記住|请记住)\s*[:：,，]?\s*([^\n]+)|\bremember\s*[:：]\s*([^\n]+)/giu
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    const value = (m[1] ?? m[2] ?? '').trim()
    if (value) {
      found.push(value.slice(0, 500))
    }
  }
  return found
}

/** Parses one `<invoke name="…">…</invoke>` block (possibly unterminated) into a tool call. */
export function parseInvokeBlock(block: string, agent: string): ToolCall | null {
  const head = /<invoke\s+name\s*=\s*["']([^"'>]*)["']/.exec(block) ?? /<invoke\s+name\s*=\s*([^\s>]+)/.exec(block)
  const name = head?.[1]?.trim()
  if (!name) {
    return null
  }
  const params: Record<string, string> = {}
  const re = /<parameter\s+name\s*=\s*["']([^"'>]*)["']\s*>/g
  let m: RegExpExecArray | null
  while ((m = re.exec(block)) !== null) {
    const start = m.index + m[0].length
    const close = block.indexOf('</parameter>', start)
    const nextOpen = block.indexOf('<parameter', start)
    let stop = close === -1 ? block.length : close
    if (close === -1 && nextOpen !== -1) {
      stop = nextOpen
    }
    let value = block.slice(start, stop)
    if (close === -1) {
      value = value.replace(/<\/invoke>\s*$/, '')
    }
    value = stripOneNewline(value)
    params[m[1] ?? ''] =
      value.length > PARSER_LIMITS.paramChars
        ? value.slice(0, PARSER_LIMITS.paramChars) + `…[truncated ${value.length - PARSER_LIMITS.paramChars} chars]`
        : value
    re.lastIndex = close === -1 ? stop : close
  }
  return { agent, name, params }
}

/** Drops the newline that usually follows `>` and precedes `</parameter>`, keeping inner formatting. */
function stripOneNewline(v: string): string {
  let start = 0
  if (v.startsWith('\r\n')) {
    start = 2
  } else if (v.startsWith('\n')) {
    start = 1
  }
  // Manual scan from the end (a regex anchored at $ retries at every position of a long value).
  let end = v.length
  while (end > start && (v[end - 1] === ' ' || v[end - 1] === '\t')) {
    end--
  }
  if (end > start && v[end - 1] === '\n') {
    end--
    if (end > start && v[end - 1] === '\r') {
      end--
    }
    return v.slice(start, end)
  }
  return v.slice(start)
}

/** Parses a whole log held in memory (tests, small logs). */
export function parseAgiAgentLog(content: Uint8Array | string, agent = 'manager'): LogParse {
  const p = new AgiAgentLogParser(agent)
  p.feed(content)
  return p.finish()
}
