import { Document, isAlias, isCollection, isScalar, Lexer, parseDocument, Parser, visit, type Scalar } from 'yaml'
import { MAX_YAML_FILE_BYTES, parseYamlDocument, yamlErrorCoded } from '../../shared/yaml-policy'
import { coded, refOf } from '../../shared/error-codes'
import { FormatError } from './model'

const YAML_LIB = { parseDocument, visit, isAlias, isScalar, isCollection, Lexer, Parser }

/** Biggest YAML document we accept (the policy's cap for whole YAML files, shared/yaml-policy.ts). */
export const MAX_YAML_BYTES = MAX_YAML_FILE_BYTES

/**
 * Parses YAML as data only, under the one YAML policy (shared/yaml-policy.ts: core schema, no anchors or aliases,
 * no custom tags, plain unique keys, no `__proto__`-like keys, bounded depth) and a size cap. Errors become a
 * FormatError with the first problem in words.
 */
export function parseYamlSafe(text: string, what: YamlWhat | (string & {}) = 'YAML'): unknown {
  // our own names by code; a caller's own name as it is
  const named = Object.hasOwn(YAML_WHAT, what) ? refOf(coded(YAML_WHAT[what as YamlWhat])) : what
  if (Buffer.byteLength(text, 'utf8') > MAX_YAML_BYTES) {
    throw new FormatError(coded('file.larger_than', { path: named, bytes: MAX_YAML_BYTES }))
  }
  const { doc, problem } = parseYamlDocument(YAML_LIB, text, '')
  if (problem || !doc) throw new FormatError(coded('format.yaml_invalid', { what: named, problem: refOf(problem?.coded ?? coded('yaml.other', { text: 'unreadable' })) }))
  try {
    return doc.toJS({ maxAliasCount: 0 })
  } catch (err) {
    throw new FormatError(coded('format.yaml_invalid', { what: named, problem: refOf(yamlErrorCoded((err as Error).message)) }))
  }
}

/** What a YAML document is, by code (its name in the UI language). */
const YAML_WHAT = { YAML: 'format.what_yaml', 'YAML skill': 'format.what_yaml_skill', 'learned skill': 'format.what_learned', 'skill config': 'format.what_config' } as const
export type YamlWhat = keyof typeof YAML_WHAT

/**
 * Plain scalars that a YAML 1.2 core or YAML 1.1 (PyYAML, used by AGIAgent) reader would NOT read back as a
 * string: numbers in any base, booleans (`yes`, `On`, `n`), nulls, `.inf`/`.nan`, timestamps, the merge key.
 * (The YAML writer already quotes whatever the syntax needs; this is only about how a value is typed.)
 */
const AMBIGUOUS_PLAIN = /^(?:[-+]?\.?\d|[-+]?\.(?:inf|nan)$|~$|null$|true$|false$|yes$|no$|on$|off$|y$|n$|<<$|=$)/i

/** True when a plain (unquoted) scalar with this text would not read back as the same string under some reader. */
function needsQuotes(text: string): boolean {
  return !text.includes('\n') && AMBIGUOUS_PLAIN.test(text)
}

/**
 * Serializes data as YAML that reads back identically with `parseYamlSafe` and with YAML 1.1 readers
 * (PyYAML): strings that look like numbers, booleans (`yes`, `on`), nulls or timestamps are quoted.
 * The result is read back and compared; if the writer lost anything (it mangles block scalars of
 * whitespace-only lines), every string is double-quoted instead.
 */
export function stringifyYamlSafe(value: unknown): string {
  const first = render(value, false)
  if (!hasMultilineString(value)) return first
  try {
    if (deepEqualData(parseYamlSafe(first), value)) return first
  } catch {
    // Fall through to the fully quoted form.
  }
  return render(value, true)
}

/** True when some string in the data spans lines: only block scalars need the read-back check. */
export function hasMultilineString(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\n')
  if (depth > 100 || value === null || typeof value !== 'object') return false
  return Object.values(value).some((v) => hasMultilineString(v, depth + 1))
}

function render(value: unknown, quoteAll: boolean): string {
  // No anchors/aliases for objects that appear twice: our readers refuse aliases.
  const doc = new Document(value, { version: '1.1', aliasDuplicateObjects: false })
  visit(doc, {
    Scalar(_key, node: Scalar) {
      if (typeof node.value === 'string' && (quoteAll || needsQuotes(node.value))) {
        node.type = 'QUOTE_DOUBLE'
      }
    }
  })
  return doc.toString({ lineWidth: 0, minContentWidth: 0 })
}

function deepEqualData(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b)
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  return ak.length === bk.length && ak.every((k) => deepEqualData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** Narrowing helper for parsed YAML: a plain mapping (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

