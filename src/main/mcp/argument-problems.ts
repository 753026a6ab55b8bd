/**
 * A tool call whose arguments do not fit the tool's input schema, said by code (pure): `mcp.invalid_args` with the
 * tool and its problems, one `mcp.arg_*` per problem with the field (`file_paths[0]`), what the schema expects and
 * what came. zod says which check failed; the JSON Schema the tool advertises (tools/list) says what it expects, so
 * the answer names the same types and values the agent was shown.
 */
import type { z } from 'zod'
import { coded, codedList, refOf, type CodedText } from '../../shared/error-codes'
import type { JsonSchemaLite } from './json-schema-to-zod'

type Issue = z.core.$ZodIssue
type PathKey = PropertyKey

/** At most this many characters of a value sent back in `got` (an agent may send a whole file where a number goes). */
const SHOWN_CHARS = 60

/** The coded answer to arguments that failed `schema` (the issues of one failed parse: at least one). */
export function invalidArguments(tool: string, schema: JsonSchemaLite, args: unknown, issues: readonly Issue[]): CodedText {
  const problems = issues.flatMap((issue) => problemsOf(tool, schema, args, issue))
  return coded('mcp.invalid_args', { tool, problems: refOf(codedList(problems)) })
}

function problemsOf(tool: string, schema: JsonSchemaLite, args: unknown, issue: Issue): CodedText[] {
  const field = fieldName(issue.path)
  const node = nodeAt(schema, issue.path)
  const value = valueAt(args, issue.path)
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return [coded('mcp.arg_missing', { field, expected: expectedType(node, issue.expected) })]
      return [coded('mcp.arg_type', { field, expected: expectedType(node, issue.expected), got: jsonType(value) })]
    case 'invalid_value':
      return [coded('mcp.arg_not_one_of', { field, expected: (node?.enum ?? issue.values).map(String).join(', '), got: shown(value) })]
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small'
      const bound = Number(small ? issue.minimum : issue.maximum)
      if (issue.origin === 'string' && typeof value === 'string') return [coded(small ? 'mcp.arg_min_length' : 'mcp.arg_max_length', { field, expected: bound, got: value.length })]
      if (issue.origin === 'array' && Array.isArray(value)) return [coded(small ? 'mcp.arg_min_items' : 'mcp.arg_max_items', { field, expected: bound, got: value.length })]
      if (issue.origin === 'number' || issue.origin === 'int') {
        const code = issue.inclusive === false ? (small ? 'mcp.arg_above' : 'mcp.arg_below') : small ? 'mcp.arg_min' : 'mcp.arg_max'
        return [coded(code, { field, expected: bound, got: shown(value) })]
      }
      break
    }
    case 'invalid_format':
      if (issue.format === 'regex' && issue.pattern !== undefined) return [coded('mcp.arg_pattern', { field, expected: node?.pattern ?? issue.pattern, got: shown(value) })]
      break
    case 'unrecognized_keys': {
      const allowed = Object.keys(node?.properties ?? {}).join(', ')
      return issue.keys.map((key) => coded('mcp.arg_unknown', { field: fieldName([...issue.path, key]), tool, expected: allowed }))
    }
  }
  return [coded('mcp.arg_invalid', { field: field || 'arguments', reason: issue.message })]
}

/** `a.b`, `file_paths[0]`: the field as the SDK and zod print it. */
function fieldName(path: readonly PathKey[]): string {
  let out = ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`
  return out
}

/** The schema node a path leads to (properties by name, items by index); undefined off the schema. */
function nodeAt(schema: JsonSchemaLite, path: readonly PathKey[]): JsonSchemaLite | undefined {
  let node: JsonSchemaLite | undefined = schema
  for (const key of path) {
    if (!node) return undefined
    node = typeof key === 'number' ? node.items : typeof key === 'string' && node.properties && Object.hasOwn(node.properties, key) ? node.properties[key] : undefined
  }
  return node
}

/** The value a path leads to in the arguments as sent (undefined when absent). */
function valueAt(args: unknown, path: readonly PathKey[]): unknown {
  let value = args
  for (const key of path) {
    if (value === null || typeof value !== 'object' || typeof key === 'symbol' || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<string | number, unknown>)[key]
  }
  return value
}

/** The JSON Schema type the tool advertises for a field (`string`, `string|null`), else what zod expected. */
function expectedType(node: JsonSchemaLite | undefined, zodExpected: string): string {
  const type = node?.type
  if (Array.isArray(type)) return type.join('|')
  return type ?? zodExpected
}

/** The JSON type of a value sent (what an agent's JSON holds). */
function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** A value as JSON, cut short. */
function shown(value: unknown): string {
  const json = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value))
  return json.length > SHOWN_CHARS ? `${json.slice(0, SHOWN_CHARS)}…` : json
}
