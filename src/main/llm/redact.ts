import { coded, type CodedText, type MessageParams, type MessageRef } from '../../shared/error-codes'
/**
 * Redaction of secrets from text that may reach a log, an error message or the UI.
 *
 * Every error path of the LLM adapter goes through `redact`: the API key must never leave the process
 * except in the `authorization` header of the request itself.
 */

const MASK = '***'

/** Key-shaped tokens we hide even when we were not told the key (a key pasted into a URL or a server echo). */
const KEY_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi,
  /\b(api[_-]?key|access[_-]?token|token|password|secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]{4,}/gi,
  // credentials inside a URL: scheme://user:pass@host
  /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi
]

/** Replaces every occurrence of the given secrets and of key-shaped tokens with `***`. */
export function redact(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  let out = text
  for (const secret of secrets) {
    // very short "keys" (e.g. 'x' for local servers) would mangle normal words; they are not secrets anyway
    if (secret && secret.length >= 6) {
      out = out.split(secret).join(MASK)
    }
  }
  out = out.replace(KEY_PATTERNS[0]!, MASK)
  out = out.replace(KEY_PATTERNS[1]!, (_m, scheme: string) => `${scheme} ${MASK}`)
  out = out.replace(KEY_PATTERNS[2]!, (_m, name: string, sep: string) => `${name}${sep}${MASK}`)
  out = out.replace(KEY_PATTERNS[3]!, (_m, scheme: string) => `${scheme}${MASK}@`)
  return out
}

/** Params with every text redacted, nested coded params too. */
export function redactParams(params: MessageParams, secrets: readonly (string | undefined | null)[]): MessageParams {
  const out: MessageParams = {}
  for (const [name, value] of Object.entries(params)) {
    out[name] = typeof value === 'string' ? redact(value, secrets) : typeof value === 'number' ? value : { messageCode: value.messageCode, params: redactParams(value.params, secrets) }
  }
  return out
}

/** A coded message with its params redacted (and its English rendered again from them). */
export function redactCoded(ref: MessageRef, secrets: readonly (string | undefined | null)[]): CodedText {
  return coded(ref.messageCode, redactParams(ref.params, secrets))
}

/** Shows a key as `sk-…abcd` (for settings screens); never the whole key. */
export function maskKey(key: string | undefined | null): string {
  if (!key) {
    return ''
  }
  if (key.length <= 8) {
    return '…'
  }
  return `${key.slice(0, 3)}…${key.slice(-4)}`
}

/**
 * Secrets that may be printed in an agent's session (a key echoed, `cat .env`, a private key): each pattern with a
 * name, so a redaction can say what it removed. Shared by reflection (a skill written from a session never keeps
 * them) and the audit (a skill that carries one is reported). The value is replaced; the name before it stays.
 */
export const SECRET_PATTERNS: readonly { kind: string; re: RegExp; keep?: number }[] = [
  { kind: 'private-key', re: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g },
  { kind: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'aws-secret-key', re: /\b(aws_secret_access_key\s*[=:]\s*["']?)[A-Za-z0-9/+=]{40}\b/gi, keep: 1 },
  { kind: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/g },
  { kind: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'stripe-key', re: /\b(?:sk|rk)_live_[0-9A-Za-z]{16,}\b/g },
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g },
  { kind: 'api-key', re: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'bearer-token', re: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{20,}/g, keep: 1 },
  // not a placeholder: pass, password, <…>, $VAR, ${VAR}, ***, xxx
  { kind: 'url-password', re: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]+:)(?!(?:pass(?:word)?|secret|xxx+|\*+|changeme)@|[<$%{[])[^\s/@]{3,}(@)/gi, keep: 1 },
  // NAME=value where the name says it is a secret and the value looks like one (long, no spaces, not a placeholder)
  { kind: 'secret-assignment', re: /\b((?:[A-Z0-9_]*(?:API_KEY|SECRET|TOKEN|PASSWORD|PASSWD)[A-Z0-9_]*|api[_-]?key|access[_-]?token|client[_-]?secret|password)["']?\s*[:=]\s*["']?)(?!your|<|\$|\{|xxx|\*\*\*|example|changeme|placeholder|\[REDACTED)(?=[A-Za-z_\-+/=.]*\d)(?=[0-9_\-+/=.]*[A-Za-z])(?![^\s"']*\.\.\.)[A-Za-z0-9_\-+/=.]{12,}/g, keep: 1 }
]

export interface SecretRedaction {
  text: string
  /** What was removed, by kind (no values). */
  removed: { kind: string; count: number }[]
}

/** Replaces every secret of SECRET_PATTERNS with `[REDACTED:kind]` and says what it removed. */
export function redactSecrets(text: string): SecretRedaction {
  const counts = new Map<string, number>()
  let out = text
  for (const { kind, re, keep } of SECRET_PATTERNS) {
    out = out.replace(re, (...args: unknown[]) => {
      counts.set(kind, (counts.get(kind) ?? 0) + 1)
      const prefix = keep ? String(args[1] ?? '') : ''
      const suffix = kind === 'url-password' ? String(args[2] ?? '') : ''
      return `${prefix}[REDACTED:${kind}]${suffix}`
    })
  }
  return { text: out, removed: [...counts].map(([kind, count]) => ({ kind, count })) }
}
