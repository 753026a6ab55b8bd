/** Front-matter fields that are strings by contract, whatever YAML thinks an unquoted value is. */
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
