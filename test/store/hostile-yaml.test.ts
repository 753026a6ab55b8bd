/**
 * Hostile YAML, read again and again in one process as the long-lived hosts do (the app, the search daemon, the MCP
 * server, a watcher re-reading a file an agent keeps rewriting): each shape is refused quickly, with the same coded
 * reason at the same line and column every time, and the heap does not grow. 5,000 unclosed `[` read three times in
 * one process used to kill it (V8: "RegExpCompiler Allocation failed - process out of memory"), at a column that
 * moved from run to run (shared/yaml-policy.ts says why).
 */
import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { parseYamlSafe } from '../../src/main/formats/safe-yaml'
import { parseSkillText } from '../../src/main/store/skill-file'
import { locateSkillProblem } from '../../src/shared/problem-position'
import { HOSTILE_FRONT_MATTER, HOSTILE_YAML_FILES, skillFile } from './hostile-yaml'

const REPEAT = 20
/** Slowest read accepted, generous for a loaded machine; they take milliseconds to tens of milliseconds. */
const MAX_MS = 1000

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

function messageOf(read: () => unknown): string {
  try {
    read()
  } catch (err) {
    return (err as Error).message
  }
  return 'read'
}

function heapAfterGc(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

describe('hostile YAML, repeated in one process', () => {
  for (const c of HOSTILE_FRONT_MATTER) {
    it(`front matter with ${c.name}: refused ${REPEAT} times alike, each fast`, () => {
      const text = skillFile(c.yaml())
      parseSkillText(text) // the first read loads the yaml package
      const heap = heapAfterGc()
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now()
        const r = parseSkillText(text)
        expect(performance.now() - started, `read ${i + 1}`).toBeLessThan(MAX_MS)
        expect(r).toEqual({ ok: false, reason: c.words, ...c.reason })
      }
      expect(heapAfterGc() - heap).toBeLessThan(10e6)
      // the editor's marker lands where the message says
      const at = /at line (\d+), column (\d+)/.exec(c.words)
      if (at) expect(locateSkillProblem(text)).toEqual({ line: Number(at[1]), column: Number(at[2]) })
    })
  }

  for (const c of HOSTILE_YAML_FILES) {
    it(`a YAML file with ${c.name}: refused ${REPEAT} times alike, each fast`, () => {
      const text = c.text()
      expect(() => parseYamlSafe(text, 'YAML')).toThrow()
      const heap = heapAfterGc()
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now()
        expect(messageOf(() => parseYamlSafe(text, 'YAML'))).toBe(`YAML is not valid YAML: ${c.words}`)
        expect(performance.now() - started, `read ${i + 1}`).toBeLessThan(MAX_MS)
      }
      expect(heapAfterGc() - heap).toBeLessThan(10e6)
    })
  }

  it('all of them in turn, three rounds: the process stays up and its resident memory does not climb', () => {
    const texts = HOSTILE_FRONT_MATTER.map((c) => skillFile(c.yaml()))
    const round = (): string[] => texts.map((t) => {
      const r = parseSkillText(t)
      return r.ok ? 'ok' : r.reason
    })
    const first = round()
    heapAfterGc()
    const rss = process.memoryUsage().rss
    expect(round()).toEqual(first)
    expect(round()).toEqual(first)
    heapAfterGc()
    expect(process.memoryUsage().rss - rss).toBeLessThan(100e6)
  })
})
