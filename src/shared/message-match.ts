import { MESSAGE_TEMPLATES, type MessageCode, type MessageParam, type MessageParams, type MessageRef } from './error-codes'

/**
 * The code and params of an English text rendered from the table (pure): the way back for messages that still
 * travel as plain text (a progress line the CLI also prints, a reason cached on disk, an error from a layer that
 * throws words). Built from MESSAGE_TEMPLATES only, so there is no second list of patterns to keep in step: a
 * message added to the table is recognised at once. Errors themselves carry their code and never need this.
 */

/** Params that may hold a whole message of their own ("not saved: {reason}"): matched again, recursively. */
const NESTED_PARAMS = new Set(['reason', 'problem', 'cause', 'message'])

interface CompiledTemplate {
  code: MessageCode
  pattern: RegExp
  names: string[]
  literal: number
}

let compiled: CompiledTemplate[] | null = null

/**
 * Fragments too general to read back from words ("{source} at {commit}" would take any sentence with "at" in it,
 * "{path} ({reason})" any text ending in a parenthesis): they are only ever params of another message, reached by code.
 * Also an update proposal's reasons: the sentence's leading {repo} would take the high-risk lead that wraps it
 * ("⚠ HIGH RISK: … {reason}") as part of the repository; they always travel with their code, and a plan an older
 * build wrote is worded from its evidence.
 */
const BY_CODE_ONLY: ReadonlySet<MessageCode> = new Set([
  'install.at_commit',
  'install.at_commit_path',
  'tool.skipped_file',
  // "note: {note}" (sync --json's note lines on stderr) would take any text that starts with "note: "
  'sync.note',
  'update.reason',
  'update.reason_local',
  'update.reason_local_conflicts',
  'update.reason_high_risk',
  // a memory proposal's tool statistics: the sentence leads with {tasks}, its items are bare "{tool} {calls} calls"
  'memory.reason_tool_stats',
  'memory.tool_stat',
  'memory.tool_stat_calls',
  'memory.tool_stat_more',
  // short templates led by a param: "x: risk y" or "foo — 1/2" in any text would be taken for them; their producers
  // (skills.lock's parser, the app's counted curation line) always send the code
  'lockfile.risk_problem',
  'curate.progress_count',
  'curate.progress_skill',
  // an MCP tool call's argument problems, led by {field} ("x is not valid: y" would take many a sentence): always
  // the items of mcp.invalid_args, which travels with its code
  'mcp.arg_missing',
  'mcp.arg_type',
  'mcp.arg_not_one_of',
  'mcp.arg_min',
  'mcp.arg_max',
  'mcp.arg_above',
  'mcp.arg_below',
  'mcp.arg_min_length',
  'mcp.arg_max_length',
  'mcp.arg_min_items',
  'mcp.arg_max_items',
  'mcp.arg_pattern',
  'mcp.arg_unknown',
  'mcp.arg_invalid',
  // the command line's own checks led by an option or a file ("x must be a or b", "x must be a number"): a UsageError
  // always carries its code, and these words would take many an unrelated sentence
  'cli.must_be_either',
  'cli.takes_either',
  'cli.takes_one_of',
  'cli.must_be_one_of',
  'cli.whole_number_range',
  'cli.must_be_number',
  'cli.positive_whole_number',
  'cli.needs_preference_id',
  'cli.not_scan_output'
])

/** True when an English text of this code is read back through the table (see compile). */
export function readBack(code: MessageCode): boolean {
  return !BY_CODE_ONLY.has(code) && MESSAGE_TEMPLATES[code].replace(/\{\w+\}/g, '').length >= 3
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function compile(): CompiledTemplate[] {
  const out: CompiledTemplate[] = []
  for (const [code, template] of Object.entries(MESSAGE_TEMPLATES) as [MessageCode, string][]) {
    const names: string[] = []
    const parts = template.split(/\{(\w+)\}/)
    let source = ''
    let literal = 0
    parts.forEach((part, i) => {
      if (i % 2 === 1) {
        names.push(part)
        source += '([\\s\\S]*?)'
      } else {
        source += escapeRegExp(part)
        literal += part.length
      }
    })
    // A template that is only params ("{text}") would match anything: it is reached by code, never by text.
    if (literal < 3 || BY_CODE_ONLY.has(code)) continue
    out.push({ code, pattern: new RegExp(`^${source}$`), names, literal })
  }
  // The most specific template first: "a skill with id {id} already exists" before "{path} already exists".
  return out.sort((a, b) => b.literal - a.literal)
}

/** The coded message an English text was rendered from, or null when no template of the table produced it. */
export function messageRefOf(text: string, depth = 0): MessageRef | null {
  if (depth > 4 || !text || text.length > 20_000) return null
  compiled ??= compile()
  for (const t of compiled) {
    const m = t.pattern.exec(text)
    if (!m) continue
    const params: MessageParams = {}
    t.names.forEach((name, i) => {
      const value = m[i + 1] ?? ''
      params[name] = (NESTED_PARAMS.has(name) && messageRefOf(value, depth + 1)) || value
    })
    return { messageCode: t.code, params }
  }
  return null
}

/** A text as a param: its code and params when the table produced it (so it is translated too), else the text. */
export function textParam(text: string): MessageParam {
  return messageRefOf(text) ?? text
}
