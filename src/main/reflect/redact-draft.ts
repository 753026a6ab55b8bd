/**
 * A reflection draft with the secrets its session printed taken out (keys, tokens, private keys, passwords in
 * URLs or assignments), by the same patterns the audit reports (llm/redact.ts). Pure.
 */
import { redactSecrets } from '../llm/redact'
import type { ReflectionDraft } from './types'
import { coded, type CodedText } from '../../shared/error-codes'

/** The draft without the secrets, and a note by code saying how many of which kinds went (null when none). */
export function redactDraft(draft: ReflectionDraft): { draft: ReflectionDraft; note: CodedText | null } {
  const counts = new Map<string, number>()
  const clean = (text: string): string => {
    const r = redactSecrets(text)
    for (const { kind, count } of r.removed) counts.set(kind, (counts.get(kind) ?? 0) + count)
    return r.text
  }
  const out: ReflectionDraft = { ...draft, title: clean(draft.title), body: clean(draft.body), usageConditions: clean(draft.usageConditions), userPreferences: clean(draft.userPreferences) }
  if (counts.size === 0) return { draft, note: null }
  const total = [...counts.values()].reduce((a, b) => a + b, 0)
  return { draft: out, note: coded('reflect.redacted', { n: total, kinds: [...counts].map(([k, n]) => `${k} ×${n}`).join(', ') }) }
}
