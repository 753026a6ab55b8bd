/**
 * Checks a model endpoint's base URL before it is saved or tested (pure; used by the Settings form and the
 * workbench alike): it must be an absolute http(s) URL with a host.
 */
export type BaseUrlProblem = 'empty' | 'not_a_url' | 'not_http' | 'no_host'

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
  return null
}

/** The problem in words (English: error messages of the API are English; the UI words its own). */
export const BASE_URL_PROBLEM_TEXT: Record<BaseUrlProblem, string> = {
  empty: 'the base URL is empty',
  not_a_url: 'the base URL is not a URL (it should look like https://api.openai.com/v1)',
  not_http: 'the base URL must start with http:// or https://',
  no_host: 'the base URL has no host name'
}
