/** Task traces read from files the user gives: `skillbench scan --json` output, an array of traces, or one trace. */
import type { ScanResult, TaskTrace } from '../../shared/types'

/** TaskTraces from `scan --json` output, an array of traces or one trace; undefined if the JSON is none of those. */
export function tracesOf(content: string, file: string): TaskTrace[] | undefined {
  let data: unknown
  try {
    data = JSON.parse(content)
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`, { cause: err })
  }
  const isTrace = (t: unknown): t is TaskTrace =>
    !!t && typeof t === 'object' && Array.isArray((t as TaskTrace).requirements) && typeof (t as TaskTrace).taskDir === 'string'
  if (Array.isArray(data)) {
    return data.filter(isTrace)
  }
  if (data && typeof data === 'object' && Array.isArray((data as ScanResult).tasks)) {
    return (data as ScanResult).tasks.filter(isTrace)
  }
  return isTrace(data) ? [data] : undefined
}
