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
