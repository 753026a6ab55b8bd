/** Top-level front-matter fields that are strings by contract, whatever YAML thinks an unquoted value is. */
export const STRING_FIELDS: ReadonlySet<string> = new Set([
  'skill_id',
  'title',
  'usage_conditions',
  'related_code',
  'created_at',
  'updated_at',
  'last_used_at',
  'user_preferences',
  'name',
  'description'
])

/** String fields of our bookkeeping under `metadata.skillbench` (SKILL.md files). */
export const SKILLBENCH_STRING_FIELDS: ReadonlySet<string> = new Set([
  'skill_id',
  'related_code',
  'created_at',
  'updated_at',
  'last_used_at',
  'user_preferences'
])

/**
 * True when the value at this key path is a string by contract: a top-level string field, or a bookkeeping
 * string under `metadata.skillbench`. Keys with the same names anywhere else keep their YAML types.
 */
export function isStringFieldPath(parents: readonly string[], key: string): boolean {
  if (parents.length === 0) return STRING_FIELDS.has(key)
  return parents.length === 2 && parents[0] === 'metadata' && parents[1] === 'skillbench' && SKILLBENCH_STRING_FIELDS.has(key)
}
