/**
 * Why something did not load, in words (the CLI, `--json`, logs and older caches read `reason`) and by code beside
 * them (a screen words it in its own language). Pure.
 */
import { isMessageRef, type CodedText, type MessageCode, type MessageParam, type MessageParams, type MessageRef } from './error-codes'
import { messageRefOf, textParam } from './message-match'
import type { LoadError } from './types'

export interface CodedReason {
  reason: string
  messageCode: MessageCode
  params: MessageParams
}

/** The reason fields of a coded message: its English as `reason`, its code and params beside it. */
export function codedReason(c: CodedText): CodedReason {
  return { reason: c.text, messageCode: c.messageCode, params: c.params }
}

/** The code of a reason: the one it carries, else its words read back through the table (a reason an older version cached). */
export function reasonRef(r: { reason: string; messageCode?: unknown; params?: unknown }): MessageRef | null {
  return isMessageRef(r) ? { messageCode: r.messageCode, params: r.params } : messageRefOf(r.reason)
}

/** A reason as a param of another message ("{path}: {reason}"): by its code, else its words read back, else as words. */
export function reasonParam(r: { reason: string; messageCode?: unknown; params?: unknown }): MessageParam {
  return isMessageRef(r) ? { messageCode: r.messageCode, params: r.params } : textParam(r.reason)
}

/** A listing's load error for a file passed over: its words and, beside them (after `kind`), their code. */
export function loadErrorOf(path: string, why: CodedReason, kind?: LoadError['kind']): LoadError {
  const e: LoadError = { path, reason: why.reason }
  if (kind) e.kind = kind
  e.messageCode = why.messageCode
  e.params = why.params
  return e
}

/** A load error as read from a cache: the code it carries, else (an older cache's words) read back through the table. */
export function withReasonCode(e: LoadError): LoadError {
  if (isMessageRef(e)) return e
  const ref = messageRefOf(e.reason)
  return ref ? { ...e, messageCode: ref.messageCode, params: ref.params } : e
}

/**
 * A reason as a cache keeps it (the search index's text of a file that does not load): its words and code as JSON.
 * `reasonFromCache` also reads the words alone that older caches hold.
 */
export function reasonForCache(why: CodedReason): string {
  return JSON.stringify({ reason: why.reason, messageCode: why.messageCode, params: why.params })
}

/**
 * The version of the reasons a cache keeps (reasonForCache). A cached reason is kept while its file's stat is
 * unchanged, so words an older build wrote would outlive an upgrade that words them better: a search index saved
 * under another version (or none: before this one) reads its files that do not load again. Bump it when what a load
 * reason says changes — its words, code or params (store/load.ts, store/skill-file.ts, the load./parse./yaml. texts
 * of the table); test/search/cache-reasons.test.ts pins it with a fingerprint of both and fails until it is bumped.
 * 3: skills carry `load_warnings` (values read with a default): an index saved before reads every file again.
 * 4: hostile YAML is refused before the parser runs, with its own yaml. codes and places (7734896).
 * 5: a second YAML document in front matter (parse.second_document, parse.second_front_matter) is refused; before,
 *    such a file loaded without what followed the separator: an index saved before reads every file again.
 */
export const CACHED_REASONS_VERSION = 5

/** A search index saved under an older version than this reads every file again, loaded ones too (see above: 3, 5). */
export const CACHED_SKILLS_VERSION = 5

const CACHED_PREFIX = '{"reason":'

/** A reason written by reasonForCache, or an older cache's words (its code read back through the table when it has one). */
export function reasonFromCache(text: string): { reason: string; messageCode?: MessageCode; params?: MessageParams } {
  if (text.startsWith(CACHED_PREFIX)) {
    try {
      const r = JSON.parse(text) as { reason?: unknown }
      if (typeof r.reason === 'string') return isMessageRef(r) ? { reason: r.reason, messageCode: r.messageCode, params: r.params } : { reason: r.reason }
    } catch {
      // not ours after all: words
    }
  }
  const ref = messageRefOf(text)
  return ref ? { reason: text, ...ref } : { reason: text }
}
