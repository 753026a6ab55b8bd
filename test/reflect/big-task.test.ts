/**
 * A long reflection says where it is, and a capped tool-call list is never reported as the task's count (issue 12).
 */
import { describe, expect, it } from 'vitest'
import { buildReflectionInput } from '../../src/main/reflect/build-input'
import { defaultReflectionDeps } from '../../src/main/reflect/default-deps'
import { reflectOffline } from '../../src/main/reflect/offline-reflector'
import { runReflection } from '../../src/main/reflect/run-reflection'
import type { ReflectionEvent } from '../../src/main/reflect/types'
import { reflectionFraction } from '../../src/main/workbench/core-modules'
import { calculatorTrace, jokeTrace } from './fixtures'
import { CALC_LOG, makeRoot } from './make-root'

describe('a capped tool-call list', () => {
  const capped = calculatorTrace({ toolCallsTotal: 126_138 })
  it('is not stated as the count in the offline skill', () => {
    const draft = reflectOffline(capped)
    expect(draft.body).toContain('126,138 tool calls in the log; the first')
    expect(draft.body).not.toMatch(new RegExp(`\\(${capped.toolCalls.length} tool calls?\\)`))
    expect(reflectOffline(jokeTrace({ toolCallsTotal: 30_000 })).body).toContain('日志共有 30,000 次工具调用')
  })
  it('is described to the model as the first part of a longer list', () => {
    const input = buildReflectionInput(capped, { budgetChars: 20_000 })
    expect(JSON.stringify(input)).toContain(`the first ${capped.toolCalls.length} of 126138 calls in the log`)
  })
})

describe('progress within one task', () => {
  it('reports the steps of each task between its start and its end', async () => {
    const root = makeRoot([{ dir: 'alice/output_20260101_000001', log: CALC_LOG }])
    const events: ReflectionEvent[] = []
    await runReflection({ rootDir: root, onEvent: (e) => events.push(e) }, defaultReflectionDeps())
    const kinds = events.map((e) => (e.kind === 'task-step' ? `step:${e.step}` : e.kind))
    expect(kinds).toEqual(['start', 'task-start', 'step:prepare', 'step:prepare', 'step:write', 'task-done', 'done'])
    const steps = events.filter((e) => e.kind === 'task-step')
    expect(steps[0]!.message).toMatch(/^Reading the trace: 1 request\(s\), \d+ tool call\(s\), \d+ error\(s\)$/)
    const fractions = events.map(reflectionFraction)
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    expect(fractions[fractions.length - 1]).toBe(1)
    expect(fractions.some((f) => f > 0 && f < 1)).toBe(true)
  })
})
