/**
 * The machine fields of an answer for the JSON the CLI, the skill tools and the MCP server print: `message_code` and
 * `params` (shared/error-codes.ts) beside the English `message`, so a script or an agent matches on the code instead
 * of the words. Snake case like the rest of the tools' JSON. Each answer spreads them where it always had them
 * (right after `message`, or last), so the key order agents see stays as it was.
 */
import { codedFieldsOf } from '../../shared/api-error'
import type { MessageCode, MessageParams, MessageRef } from '../../shared/error-codes'
import { messageRefOf } from '../../shared/message-match'

export interface CodedFields {
  message_code?: MessageCode
  params?: MessageParams
}

/** The `message_code` and `params` of a coded message (a CodedText, or an error's code and params). */
export function codedFields(c: MessageRef): Required<CodedFields> {
  return { message_code: c.messageCode, params: c.params }
}

/** The code and params of an error (carried, or read back from its English text when the table produced it). */
export function codedFieldsFor(err: unknown, message: string): CodedFields {
  const ref = codedFieldsOf(err) ?? messageRefOf(message)
  return ref ? codedFields(ref) : {}
}

/** A tool answer with `message_code` and `params` added when it is an error whose message has a code. */
export function withMessageCode<R extends { status: string; message: string }>(result: R): R & CodedFields {
  if (result.status !== 'error' || 'message_code' in result) return result
  return { ...result, ...codedFieldsFor(null, result.message) }
}
