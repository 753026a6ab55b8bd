/**
 * A reflection draft with the secrets its session printed taken out (keys, tokens, private keys, passwords in
 * URLs or assignments), by the same patterns the audit reports (llm/redact.ts). Pure.
 */
import { redactSecrets } from '../llm/redact'
import type { ReflectionDraft } from './types'

export function redactDraft(draft: ReflectionDraft): { draft: ReflectionDraft; note: string | null } {
  const counts = new Map<string, number>()
  const clean = (text: string): string => {
    const r = redactSecrets(text)
    for (const { kind, count } of r.removed) counts.set(kind, (counts.get(kind) ?? 0) + count)
    return r.text
  }
  const out: ReflectionDraft = { ...draft, title: clean(draft.title), body: clean(draft.body), usageConditions: clean(draft.usageConditions), userPreferences: clean(draft.userPreferences) }
  if (counts.size === 0) return { draft, note: null }
  const total = [...counts.values()].reduce((a, b) => a + b, 0)
  return { draft: out, note: `${total} secret(s) printed in the session redacted from the skill (${[...counts].map(([k, n]) => `${k} ×${n}`).join(', ')})` }
}
