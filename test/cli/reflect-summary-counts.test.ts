/**
 * The human summary after `skillbench reflect` counts each skipped task in one bucket by its code: a task whose
 * finished version's update was proposed before is "already reflected", never "without logs".
 */
import { describe, expect, it } from 'vitest'
import { formatReflectSummary } from '../../src/main/cli/commands/reflect'
import { coded } from '../../src/shared/error-codes'

const skipped = (taskDir: string, c: { messageCode: string; params: Record<string, unknown>; text: string }) => ({ taskDir, reason: c.text, messageCode: c.messageCode, params: c.params })

describe('reflect summary counts', () => {
  it('an update proposed before for a finished task counts as already reflected', () => {
    const before = coded('reflect.finished_update_before', { title: 'Calc', id: 'finished-1', status: coded('reflect.proposed_rejected') })
    const line = formatReflectSummary({ created: [], skipped: [skipped('output_1', before), skipped('output_2', coded('reflect.already'))], failed: [], cancelled: false } as never).split('\n')[0]
    expect(line).toBe('Created 0 skill(s); skipped 2 already reflected; failed 0.')
  })
  it('a task the scan passed over (no logs) is still counted as without logs', () => {
    const line = formatReflectSummary({ created: [], skipped: [{ taskDir: 'output_3', reason: 'no logs folder' }], failed: [], cancelled: false } as never).split('\n')[0]
    expect(line).toBe('Created 0 skill(s); skipped 0 already reflected, 1 without logs; failed 0.')
  })
})
