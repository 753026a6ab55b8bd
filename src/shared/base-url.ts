/**
 * Checks a model endpoint's base URL before it is saved or tested (pure; used by the Settings form and the
 * workbench alike): it must be an absolute http(s) URL with a host.
 */
import { coded, type CodedText } from './error-codes'

export type BaseUrlProblem = 'empty' | 'not_a_url' | 'not_http' | 'no_host' | 'blocked_port'

/**
 * Ports fetch refuses to connect to (the WHATWG Fetch "bad port" list, which Node's undici enforces): a URL on one
 * of them fails before any request is sent, so it is caught here with a clear word instead of "fetch failed".
 */
const BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080
])

/** The port of an http(s) URL when the runtime blocks it, else undefined (pure). */
export function blockedPortOf(value: string): number | undefined {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return undefined
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.port) return undefined
  const port = Number(url.port)
  return BLOCKED_PORTS.has(port) ? port : undefined
}

/** Why a blocked port fails, and what to do (English; the code lets the UI word it in its language). */
export function blockedPortText(port: number): string {
  return blockedPortMessage(port).text
}

export function blockedPortMessage(port: number): CodedText {
  return coded('url.bad_port', { port })
}

export function baseUrlProblem(value: string): BaseUrlProblem | null {
  const text = value.trim()
  if (!text) return 'empty'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'not_a_url'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not_http'
  if (!url.hostname) return 'no_host'
  // saving a URL every request would fail on is no help: say so where it is typed
  if (blockedPortOf(text) !== undefined) return 'blocked_port'
  return null
}

/** The problem as a coded message (English text beside its code, error-codes.ts). */
export function baseUrlProblemMessage(problem: BaseUrlProblem): CodedText {
  return problem === 'not_a_url' ? coded('url.not_a_url', { example: 'https://api.openai.com/v1' }) : coded(`url.${problem}`)
}

/** The problem in words (English: error messages of the API are English; the UI words its own). */
export const BASE_URL_PROBLEM_TEXT: Record<BaseUrlProblem, string> = {
  empty: baseUrlProblemMessage('empty').text,
  not_a_url: baseUrlProblemMessage('not_a_url').text,
  not_http: baseUrlProblemMessage('not_http').text,
  no_host: baseUrlProblemMessage('no_host').text,
  blocked_port: baseUrlProblemMessage('blocked_port').text
}
