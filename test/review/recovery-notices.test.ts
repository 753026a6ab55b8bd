/**
 * Who hears a recovery (review/recovery-notices.ts): the work it ran in, found by async context — through awaits
 * and timers, two pieces of work in flight each hear only their own, an inner listener hears instead of the outer
 * one, and work outside any listener tells nobody (the app). A listener that throws does not fail the recovery.
 */
import { describe, expect, it } from 'vitest'
import { hearRecoveries, recoveredEntry, recoveryCollector, tellRecovery } from '../../src/main/review/recovery-notices'
import { codedLine, type CodedLine } from '../../src/shared/error-codes'

const line = (id: string): CodedLine => codedLine('review.recover_rolled_back', { id, proposal: `p-${id}` })
const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('recovery notices', () => {
  it('two pieces of work in flight, interleaved by awaits and timers, each hear only their own recoveries', async () => {
    const a: string[] = []
    const b: string[] = []
    const work = (tag: string, ms: number) => async (): Promise<void> => {
      await tick(ms)
      tellRecovery([line(`${tag}-1`)])
      await Promise.resolve()
      setTimeout(() => tellRecovery([line(`${tag}-timer`)]), 1)
      await tick(ms)
      tellRecovery([line(`${tag}-2`)])
    }
    await Promise.all([hearRecoveries((ls) => a.push(...ls.map((l) => String(l.params.id))), work('a', 5)), hearRecoveries((ls) => b.push(...ls.map((l) => String(l.params.id))), work('b', 2))])
    await tick(5)
    expect(a.sort()).toEqual(['a-1', 'a-2', 'a-timer'])
    expect(b.sort()).toEqual(['b-1', 'b-2', 'b-timer'])
  })

  it('an inner listener hears instead of the outer one; outside any, nobody is told; a throwing listener is contained', async () => {
    const outer: string[] = []
    const inner: string[] = []
    tellRecovery([line('nobody')])
    await hearRecoveries(
      (ls) => outer.push(...ls.map((l) => String(l.params.id))),
      async () => {
        tellRecovery([line('o-1')])
        await hearRecoveries((ls) => inner.push(...ls.map((l) => String(l.params.id))), async () => tellRecovery([line('i-1')]))
        tellRecovery([line('o-2')])
        tellRecovery([])
      }
    )
    expect([outer, inner]).toEqual([['o-1', 'o-2'], ['i-1']])
    expect(() => hearRecoveries(() => { throw new Error('listener broke') }, () => tellRecovery([line('x')]))).not.toThrow()
  })

  it('a collector keeps its own work\'s lines as entries, in order, and passes each on as heard', async () => {
    const saidA: string[] = []
    const a = recoveryCollector((l) => saidA.push(l.message))
    const b = recoveryCollector()
    await Promise.all([
      a.run(async () => {
        await tick(3)
        tellRecovery([line('a-1'), line('a-2')])
      }),
      b.run(async () => tellRecovery([line('b-1')]))
    ])
    tellRecovery([line('nobody')])
    expect(a.entries).toEqual([recoveredEntry(line('a-1')), recoveredEntry(line('a-2'))])
    expect(saidA).toEqual([line('a-1').message, line('a-2').message])
    expect(b.entries.map((e) => e.params.id)).toEqual(['b-1'])
  })

  it('an entry is the line by code: {code, params, message}', () => {
    expect(recoveredEntry(line('t1'))).toEqual({ code: 'review.recover_rolled_back', params: { id: 't1', proposal: 'p-t1' }, message: 't1: an interrupted change (proposal p-t1) was rolled back; nothing of it stays applied' })
  })
})
