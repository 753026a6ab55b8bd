/**
 * Memory logic on real public logs, read in place: no false preferences, and an extractive summary made
 * only of the log's own lines.
 */
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { extractiveSummary } from '../../src/main/memory/consolidate'
import { extractPreferences } from '../../src/main/memory/preferences'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

const LOGS = [
  ['agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'tianhaoyang', 'output_20260119_124253', 'logs', 'manager.out'],
  ['agiagent', 'hzqjgthy_AGIAgent_thy', 'output_thy_test_project33', 'logs', 'manager.out'],
  ['agiagent', 'pelioo_AGIAgent', 'manager.out']
]

describe.skipIf(!HAS_REAL_DATA)('memory on real AGIAgent logs', () => {
  it('finds no preference where nobody stated one', () => {
    for (const parts of LOGS) {
      expect(extractPreferences(fs.readFileSync(realPath(...parts), 'utf8')), parts.join('/')).toEqual([])
    }
  })
  it('summarises a real log with up to 5 of its own lines, and no heading', () => {
    for (const parts of LOGS) {
      const log = fs.readFileSync(realPath(...parts), 'utf8')
      const summary = extractiveSummary(log)
      const lines = summary.split('\n').filter(Boolean)
      expect(lines.length, parts.join('/')).toBeGreaterThan(0)
      expect(lines.length).toBeLessThanOrEqual(5)
      for (const line of lines) {
        expect(line.startsWith('- ')).toBe(true)
        expect(line).not.toMatch(/^#/)
        // every bullet is a (possibly cut) line of the log
        const body = line.slice(2).replace(/…$/, '').replace(/^\*\*(.*)\*\*$/, '$1')
        expect(log.replace(/\s+/g, ' ')).toContain(body.slice(0, 60).trim())
      }
    }
  })
})
