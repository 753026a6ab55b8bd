/**
 * The audit's text rules, one line at a time: instructions aimed at the agent against its user, and scripts that
 * run remote or decoded code, persist, destroy or weaken TLS. Each rule has a cheap `hint` tested on the whole
 * file first, so a file without any of its words costs one regex test. Pure.
 *
 * Precision: showing a command to a person is not running it. `curl -v https://…` and `curl … | jq` match
 * nothing; a prose line that names a pattern as something to avoid ("never pipe `curl … | sh`") is lowered
 * from high to medium when the warning governs the pattern, not when a negation is elsewhere in the sentence ("run
 * `curl … | sh` and never skip it" stays high; cautionary.ts); a base64 string that is only data matches nothing
 * (only decoding *into a shell* does).
 */
import { SECRET_PATTERNS } from '../llm/redact'
import { namedAsWarning } from './cautionary'
import type { AuditSeverity } from './types'

/** Where a line sits: prose of a Markdown file, a fenced code block, or a script file. */
export type LineContext = 'prose' | 'code'

export interface LineHit {
  rule: string
  severity: AuditSeverity
  message: string
}

export interface LineRule {
  rule: string
  /** Tested once on the whole text: no match, no line is looked at. */
  hint: RegExp
  check: (line: string, ctx: LineContext, around: () => string) => LineHit | null
}

const SHELLS = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:ba|z|k|da|fi|tc|c)?sh\b(?!\s*\.)`
/** An interpreter fed the piped text as its program (not `python -m json.tool`, which reads it as data). */
const INTERPRETER_PROGRAM = String.raw`(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php)(?:\s+-)?\s*(?:$|[;&|)])`
const FETCH = String.raw`(?:curl|wget|fetch|http|iwr|irm|invoke-webrequest|invoke-restmethod)`

const REMOTE_PIPE: RegExp[] = [
  new RegExp(String.raw`\b${FETCH}\b[^|\n]*\|\s*(?:${SHELLS}|${INTERPRETER_PROGRAM})`, 'i'),
  new RegExp(String.raw`\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b`, 'i'),
  new RegExp(String.raw`\b(?:source|\.)\s+<\(\s*(?:curl|wget)\b`, 'i'),
  new RegExp(String.raw`\b(?:(?:ba|z)?sh|python[0-9.]*)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b`, 'i'),
  /\b(?:iex|invoke-expression)\b\s*[(\s]*(?:\(?\s*)?(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?new-object\s+(?:system\.)?net\.webclient)/i,
  /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b[^\n]*\|\s*(?:iex|invoke-expression)\b/i
]

const DECODED_RUN: RegExp[] = [
  new RegExp(String.raw`\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:${SHELLS}|${INTERPRETER_PROGRAM})`, 'i'),
  /\b(?:openssl\s+(?:enc\s+)?-?base64\s+-d|xxd\s+-r)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/i,
  /\beval\b\s*[("']*\s*\$\(\s*(?:curl|wget)\b/i,
  /\beval\b[^\n]*\bbase64\s+(?:-d|--decode|-D)\b/i,
  /\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|codecs\.decode|zlib\.decompress|marshal\.loads|requests\.get|urllib\.request\.urlopen|urlopen|bytes\.fromhex)\b/i,
  /\b(?:exec|eval)\s*\(\s*(?:atob|Buffer\.from\([^)]*['"]base64['"])/i,
  /\b(?:eval|new\s+Function)\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?fetch\s*\(/i,
  /\b(?:eval|new\s+Function)\s*\([^)\n]*\b(?:responseText|\.text\(\))/i
]

const HOME = String.raw`(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s'"]+|/Users/[^/\s'"]+)`
const WRITE_TO = String.raw`(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|ln\s+-s\w*)\s+\S+\s+)\s*["']?`
const SHELL_STARTUP = new RegExp(String.raw`${WRITE_TO}(?:${HOME}/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config/fish/config\.fish)|/etc/(?:profile|bash\.bashrc|zsh/zshrc|environment)\b)`, 'i')
const CRON_WRITE: RegExp[] = [/\|\s*crontab\b/i, new RegExp(String.raw`${WRITE_TO}(?:/etc/cron|/var/spool/cron)`, 'i'), /\bcrontab\s+(?!-[elr]\b)[\w./~-]+\s*$/i]
const AUTHORIZED_KEYS = new RegExp(String.raw`${WRITE_TO}\S*authorized_keys2?\b`, 'i')

/** `rm` with a recursive flag on the home folder or the root itself (not a folder below them), in a script or in `backticks`. */
const RM_TARGET = String.raw`["']?(?:~|~/|~/\*|\$HOME|\$\{HOME\}|\$HOME/\*?|\$\{HOME\}/\*?|/|/\*|/home|/root|/Users|/etc|/usr|C:\\?)["']?(?=\s|$|[;&|)\x60])`
const RM_HOME_ROOT = new RegExp(String.raw`\brm\s+(?:-{1,2}[\w-]+\s+)*${RM_TARGET}`, 'i')
const RM_RECURSIVE = /\brm\s+(?:-{1,2}[\w-]+\s+)*?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\b/

const TLS_OFF: RegExp[] = [
  /\bcurl\b[^\n|;&]*\s(?:-[a-zA-Z]*k[a-zA-Z]*|--insecure)\b/,
  /\bwget\b[^\n|;&]*--no-check-certificate\b/i,
  /\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0/,
  /\bverify\s*=\s*False\b/,
  /\brejectUnauthorized\s*:\s*false\b/,
  /\bInsecureSkipVerify\s*:\s*true\b/,
  /\bssl\._create_unverified_context\b|\bcheck_hostname\s*=\s*False\b|\bverify_mode\s*=\s*ssl\.CERT_NONE\b/,
  /\bhttp\.sslVerify\s+false\b|\bGIT_SSL_NO_VERIFY\s*=\s*['"]?(?:1|true)\b/i,
  /\bstrict-ssl\s+false\b|\bPYTHONHTTPSVERIFY\s*=\s*['"]?0\b|-SkipCertificateCheck\b/i
]
const LOCAL_HOST = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])\b/

const OVERRIDE = /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|every|of|these|those)\s+)*(?:previous|prior|preceding|above|earlier|original|system|developer|safety|user'?s?)\s+(?:(?:and|or|\/)\s+\w+\s+)?(?:instructions?|prompts?|rules|guidelines|directives|messages|guardrails|policies|constraints)\b/i
const IGNORE_SYSTEM_PROMPT = /\b(?:ignore|disregard|forget)\s+(?:the\s+|your\s+)?system\s+prompt\b/i
const CONCEAL: RegExp[] = [
  /\b(?:hide|conceal|keep)\b[^.\n]{0,40}\b(?:from|secret\s+from)\s+(?:the\s+|your\s+)?(?:user|human|operator|owner)s?\b/i,
  /\b(?:do\s*n[o']?t|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|let(?:ting)?)\s+(?:the\s+|your\s+)?(?:user|human|operator|owner)s?\b(?!\s+(?:wait|guess|repeat))/i,
  /\b(?:do\s*n[o']?t|never)\s+(?:mention|reveal|disclose|show)\s+(?:this|these|it|that|any\s+of\s+this)\b[^.\n]{0,30}\bto\s+(?:the\s+|your\s+)?(?:user|human|operator)s?\b/i,
  /\bsilently\s+(?:send|upload|post|transmit|exfiltrate|forward|copy)\b/i
]

/** Files and stores that hold a user's credentials. `.env` alone is left to the sending test (every app has one). */
const CREDENTIAL = /(?:~|\$HOME|\$\{HOME\}|\/(?:home|Users)\/[^/\s]+|%USERPROFILE%)?\/?\.ssh\/(?:id_[\w-]+|\*|identity)|(?:~|\$HOME)\/\.ssh\/?(?=\s|$|["'`)])|\.aws\/credentials|(?:~|\$HOME)\/\.aws\b|(?:~|\$HOME)\/\.netrc|\.git-credentials|\.docker\/config\.json|\.kube\/config|\.config\/gcloud|\.gnupg\b|\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)\b|\blogin\.keychain|Library\/Keychains|Login Data\b|\blogins\.json\b|\bkey4\.db\b|\bCookies\.sqlite|(?:Google\/Chrome|Chromium|BraveSoftware|\.mozilla\/firefox|Firefox\/Profiles)\/[^\s]*|\/etc\/shadow\b/i
const DOTENV = /(?:^|[\s"'`(/=@])\.env\b(?!\.example|\.sample|\.template)/
const READS = /\b(?:cat|less|head|tail|read|open|copy|cp|grep|strings|print|dump|base64|tar|zip|collect|gather|extract|load)\b|<\s*\S/i
/** Sending somewhere: network commands with data, uploads, "send them", webhooks. */
const SENDS = /\bcurl\b[^\n]*(?:\s-d\b|--data|\s-F\b|--form|\s-T\b|--upload-file|-X\s*POST)|\bwget\b[^\n]*--post-(?:data|file)|\b(?:nc|ncat|netcat|socat|scp|sftp|ftp)\b\s+\S|\b(?:send|upload|post|transmit|exfiltrate|forward|leak|paste)\s+(?:it|them|this|these|that|those|its|their|the\s+(?:file|files|contents?|keys?|credentials|secrets?|tokens?|data))\b|\bexfiltrat\w*|\bwebhook\b|\bpastebin\b|Invoke-RestMethod[^\n]*-Method\s+Post/i

/** The redaction patterns as one-line tests (a private key is known by its first line). */
const SECRET_TESTS = SECRET_PATTERNS.map(({ kind, re }) => ({ kind, re: kind === 'private-key' ? /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/ : new RegExp(re.source, re.flags.replace('g', '')) }))

/** Lowered to medium when the prose sentence around the match names it as a warning or an example (cautionary.ts). */
function lowered(hit: LineHit, line: string, ctx: LineContext, matched: string): LineHit {
  if (hit.severity !== 'high' || ctx !== 'prose' || !namedAsWarning(line, matched)) return hit
  return { ...hit, severity: 'medium', message: `${hit.message} (written as a warning or example; check that it is not a step)` }
}

/** The first match of any of the patterns (its text), or null. */
function anyOf(res: readonly RegExp[], line: string): string | null {
  for (const re of res) {
    const m = re.exec(line)
    if (m) return m[0]
  }
  return null
}

export const LINE_RULES: readonly LineRule[] = [
  {
    rule: 'remote-code-pipe',
    hint: /curl|wget|fetch|http|iwr|irm|invoke-|downloadstring/i,
    check: (line, ctx) => {
      const m = anyOf(REMOTE_PIPE, line)
      return m === null ? null : lowered({ rule: 'remote-code-pipe', severity: 'high', message: 'runs code downloaded from the network straight into a shell or interpreter: whatever the server sends runs with your rights, unreviewed' }, line, ctx, m)
    }
  },
  {
    rule: 'decoded-payload',
    hint: /base64|eval|exec|function|xxd/i,
    check: (line, ctx) => {
      const m = anyOf(DECODED_RUN, line)
      return m === null ? null : lowered({ rule: 'decoded-payload', severity: 'high', message: 'decodes or fetches text and runs it as code (base64 into a shell, eval of fetched text): the program is hidden from review' }, line, ctx, m)
    }
  },
  {
    rule: 'persistence',
    hint: /bashrc|profile|zsh|fish|environment|cron|authorized_keys/i,
    check: (line, ctx) => {
      const keys = AUTHORIZED_KEYS.exec(line)
      if (keys) return lowered({ rule: 'persistence', severity: 'high', message: 'writes to an ssh authorized_keys file: lets someone log in to this machine' }, line, ctx, keys[0])
      const cron = anyOf(CRON_WRITE, line)
      if (cron !== null) return lowered({ rule: 'persistence', severity: 'high', message: 'installs a cron job: a command that keeps running on a schedule after the task is over' }, line, ctx, cron)
      if (SHELL_STARTUP.test(line)) return { rule: 'persistence', severity: 'medium', message: 'writes to a shell start-up file (.bashrc, .zshrc, .profile…): it runs in every new shell; check what is added' }
      return null
    }
  },
  {
    rule: 'destructive-delete',
    hint: /\brm\b/,
    check: (line, ctx) => {
      if (/--no-preserve-root\b/.test(line)) return lowered({ rule: 'destructive-delete', severity: 'high', message: 'rm --no-preserve-root: deletes the whole file system' }, line, ctx, '--no-preserve-root')
      const m = RM_HOME_ROOT.exec(line)
      if (m && RM_RECURSIVE.test(m[0])) return lowered({ rule: 'destructive-delete', severity: 'high', message: `recursive rm of the home folder or the root (${m[0].trim()}): deletes the user's files` }, line, ctx, m[0])
      return null
    }
  },
  {
    rule: 'tls-disabled',
    hint: /insecure|\s-[a-zA-Z]*k|check-certificate|TLS_REJECT|verify|Unauthorized|SkipVerify|unverified|CERT_NONE|hostname|ssl/i,
    check: (line) => {
      if (anyOf(TLS_OFF, line) === null) return null
      if (LOCAL_HOST.test(line)) return { rule: 'tls-disabled', severity: 'low', message: 'turns off TLS certificate checks (for a local address)' }
      return { rule: 'tls-disabled', severity: 'medium', message: 'turns off TLS certificate checks: anyone on the network can read or change what is downloaded or sent' }
    }
  },
  {
    rule: 'override-instructions',
    hint: /ignore|disregard|forget|override|bypass/i,
    check: (line, ctx) => {
      const m = anyOf([OVERRIDE, IGNORE_SYSTEM_PROMPT], line)
      return m === null ? null : lowered({ rule: 'override-instructions', severity: 'high', message: 'tells the agent to ignore its previous or system instructions: a prompt injection aimed at the agent' }, line, ctx, m)
    }
  },
  {
    rule: 'conceal-from-user',
    hint: /user|human|operator|owner|silently/i,
    check: (line, ctx) => {
      const m = anyOf(CONCEAL, line)
      return m === null ? null : lowered({ rule: 'conceal-from-user', severity: 'high', message: 'tells the agent to hide what it does from its user' }, line, ctx, m)
    }
  },
  {
    rule: 'credential-access',
    hint: /ssh|aws|netrc|credential|docker|kube|gcloud|gnupg|keychain|security|login|cookies|chrome|chromium|brave|firefox|mozilla|shadow|\.env/i,
    check: (line, ctx, around) => {
      const cred = CREDENTIAL.exec(line)
      const env = cred ? null : DOTENV.exec(line)
      if (!cred && !env) return null
      const what = (cred ?? env)![0].trim()
      if (SENDS.test(line) || (cred && SENDS.test(around()))) {
        return lowered({ rule: 'credential-access', severity: 'high', message: `reads credentials (${what}) and sends them somewhere` }, line, ctx, what)
      }
      if (cred && READS.test(line)) return { rule: 'credential-access', severity: 'medium', message: `reads a credential store (${what}): check why a skill needs it` }
      return null
    }
  },
  {
    // the patterns reflection redacts with: a skill that carries a key hands it to everyone it is shared with
    rule: 'embedded-secret',
    hint: /PRIVATE KEY|AKIA|ASIA|aws_secret|gh[pousr]_|github_pat_|xox|AIza|_live_|npm_|eyJ|sk-|Bearer|:\/\/[^\s/@:]+:[^\s/@]+@|API_KEY|SECRET|TOKEN|PASSW|api[_-]?key|access[_-]?token|client[_-]?secret|password/i,
    check: (line) => {
      for (const { kind, re } of SECRET_TESTS) {
        if (!re.test(line)) continue
        return { rule: 'embedded-secret', severity: 'medium', message: `carries what looks like a secret (${kind}): anyone the skill is shared with gets it; reflection redacts these` }
      }
      return null
    }
  },
  {
    rule: 'network-upload',
    hint: /curl|wget/i,
    check: (line) => {
      if (!/\bcurl\b[^\n]*(?:\s-T\s|--upload-file|\s-F\s*\S*=@|--data-binary\s+@|\s-d\s*@)|\bwget\b[^\n]*--post-file/.test(line)) return null
      if (LOCAL_HOST.test(line)) return null
      return { rule: 'network-upload', severity: 'low', message: 'uploads a local file to a server: check which file and where' }
    }
  }
]
