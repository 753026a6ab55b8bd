/**
 * What a finding says, in the app's language (pure). Messages come from the audit in English; in Chinese the rule's
 * own words are used, with what the hidden text spells (the part a person most needs) kept as it is.
 */
import type { AuditFindingInfo } from '../../../shared/api-audit'
import type { MessageKey } from '../../i18n/messages'

export const RULE_KEYS: Record<string, MessageKey> = {
  'hidden-text': 'audit.rule.hidden-text',
  'override-instructions': 'audit.rule.override-instructions',
  'conceal-from-user': 'audit.rule.conceal-from-user',
  'credential-access': 'audit.rule.credential-access',
  'remote-code-pipe': 'audit.rule.remote-code-pipe',
  'decoded-payload': 'audit.rule.decoded-payload',
  persistence: 'audit.rule.persistence',
  'destructive-delete': 'audit.rule.destructive-delete',
  'tls-disabled': 'audit.rule.tls-disabled',
  'embedded-secret': 'audit.rule.embedded-secret',
  'network-upload': 'audit.rule.network-upload',
  'link-out': 'audit.rule.link-out',
  'executable-without-source': 'audit.rule.executable-without-source',
  'file-too-large': 'audit.rule.file-too-large'
}

type T = (key: MessageKey, values?: Record<string, string | number>) => string

/** The finding's explanation: the audit's message in English; in Chinese, the kind of hidden text and what it says (else nothing more than the rule's name). */
export function findingDetail(f: AuditFindingInfo, lang: 'en' | 'zh', t: T): string {
  if (lang === 'en') return f.message
  if (f.rule === 'hidden-text') {
    const said = /"([\s\S]*)"/.exec(f.message)?.[1]
    const kind = /tag characters/.test(f.message) ? t('audit.hidden.tag') : /zero-width/.test(f.message) ? t('audit.hidden.zeroWidth') : t('audit.hidden.bidi')
    return said ? `${kind}：“${said}”` : kind
  }
  // the rule's name already says it (shown above); the excerpt below shows the line itself
  return RULE_KEYS[f.rule] ? '' : f.message
}
