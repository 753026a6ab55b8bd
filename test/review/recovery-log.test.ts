/**
 * What transaction recovery did, kept on disk for the app (review/recovery-log.ts): a rollback and a failure are
 * appended by the recovering process, a recovery with nothing to tell appends nothing, processes appending at once
 * lose nothing, and dismissing only moves the seen offset forward. Real folders, real processes.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { interruptedTransactions, recoverTransactions } from '../../src/main/review/transactions'
import { appendJournal, type JournalRecord } from '../../src/main/review/journal'
import { appendRecoveryLog, markRecoveriesSeen, MAX_UNSEEN_BYTES, readUnseenRecoveries, RECOVERY_LOG_REL, RECOVERY_SEEN_REL } from '../../src/main/review/recovery-log'
import { libraryProblems } from '../../src/main/workbench/library-problems'
import { codedLine } from '../../src/shared/error-codes'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { bundleChild } from '../helpers/bundle-child'
import { tempDir } from '../curate/fixtures'

/** A library of one skill file and the intent of a transaction a kill left (its write of skill_1.md). */
function libraryWithIntent(id: string, current: string, op: { before: string; after: string }): string {
  const dir = fs.realpathSync(tempDir('recovery-log'))
  fs.writeFileSync(path.join(dir, 'skill_1.md'), current)
  writeIntent(dir, id, op)
  return dir
}

function writeIntent(dir: string, id: string, op: { before: string; after: string }, path_ = 'skill_1.md'): JournalRecord {
  const record = { id, action: 'apply', proposal_id: `p-${id}`, kind: 'merge', by: 'u', at: '2026-12-03T09:15:00Z', changes: [], ops: [{ op: 'write', path: path_, ...op }] } as JournalRecord
  fs.mkdirSync(path.join(dir, '.skillbench', 'tx'), { recursive: true })
  fs.writeFileSync(path.join(dir, '.skillbench', 'tx', `${id}.json`), JSON.stringify({ id, record }))
  return record
}

function logLines(dir: string): string[] {
  return fs.readFileSync(path.join(dir, RECOVERY_LOG_REL), 'utf8').split('\n').filter(Boolean)
}

describe('the recovery log', () => {
  it('a recovery that rolls one change back and cannot set another right appends one record with both, by code', async () => {
    const dir = libraryWithIntent('tx-a', 'the new text\n', { before: 'the old text\n', after: 'the new text\n' })
    fs.writeFileSync(path.join(dir, 'skill_2.md'), 'edited by hand since\n')
    writeIntent(dir, 'tx-b', { before: 'two old\n', after: 'two new\n' }, 'skill_2.md')
    expect(await interruptedTransactions(dir)).toEqual(['tx-a', 'tx-b'])

    const report = await recoverTransactions(dir)
    expect(report.rolledBack).toEqual(['tx-a'])
    expect(fs.readFileSync(path.join(dir, 'skill_1.md'), 'utf8')).toBe('the old text\n')
    const lines = logLines(dir)
    expect(lines).toHaveLength(1)
    const record = JSON.parse(lines[0]!)
    expect(record).toMatchObject({ pid: process.pid, rolled_back: ['tx-a'] })
    expect(record.lines).toEqual([
      { message: 'tx-a: an interrupted change (proposal p-tx-a) was rolled back; nothing of it stays applied', messageCode: 'review.recover_rolled_back', params: { id: 'tx-a', proposal: 'p-tx-a' } },
      { message: 'tx-b: skill_2.md matches neither its old nor its new text', messageCode: 'review.recover_failed', params: { id: 'tx-b', problems: { messageCode: 'review.undo_neither', params: { path: 'skill_2.md' } } } }
    ])
    expect(translateLine(record.lines[0], record.lines[0].message, 'zh')).toBe('tx-a：被中断的修改（提议 p-tx-a）已回滚，没有任何部分保留下来')
    // both intents are finished: nothing is interrupted any more, and a second recovery has nothing to tell
    expect(await interruptedTransactions(dir)).toEqual([])
    await recoverTransactions(dir)
    expect(logLines(dir)).toHaveLength(1)
  })

  it('a recovery that only finishes a committed change appends nothing', async () => {
    const dir = libraryWithIntent('tx-c', 'the new text\n', { before: 'the old text\n', after: 'the new text\n' })
    const tx = JSON.parse(fs.readFileSync(path.join(dir, '.skillbench', 'tx', 'tx-c.json'), 'utf8')) as { record: JournalRecord }
    await appendJournal(dir, tx.record)
    const report = await recoverTransactions(dir)
    expect(report.committed).toEqual(['tx-c'])
    expect(fs.existsSync(path.join(dir, RECOVERY_LOG_REL))).toBe(false)
    expect(fs.readFileSync(path.join(dir, 'skill_1.md'), 'utf8')).toBe('the new text\n')
  })

  it('interruptedTransactions only reads: the intent, its folder and the library stay byte for byte and unmoved', async () => {
    const dir = libraryWithIntent('tx-d', 'the new text\n', { before: 'the old text\n', after: 'the new text\n' })
    fs.writeFileSync(path.join(dir, '.skillbench', 'tx', 'torn.json'), '{"id": "to')
    const stat = (p: string): string => {
      const s = fs.statSync(path.join(dir, p))
      return `${s.mtimeMs}:${s.size}`
    }
    const files = ['skill_1.md', '.skillbench', '.skillbench/tx', '.skillbench/tx/tx-d.json', '.skillbench/tx/torn.json']
    const before = files.map(stat)
    expect(await interruptedTransactions(dir)).toEqual(['torn.json', 'tx-d'])
    expect(files.map(stat)).toEqual(before)
    expect(fs.readdirSync(path.join(dir, '.skillbench')).sort()).toEqual(['tx'])
  })

  it('dismissing moves the seen offset forward only, never past the end; records appended after the shown ones stay', async () => {
    const dir = libraryWithIntent('tx-e', 'the new text\n', { before: 'the old text\n', after: 'the new text\n' })
    await recoverTransactions(dir)
    const shown = await readUnseenRecoveries(dir)
    expect(shown.records.map((r) => r.rolled_back)).toEqual([['tx-e']])
    expect(shown.end).toBe(fs.statSync(path.join(dir, RECOVERY_LOG_REL)).size)

    // another process recovers between the listing and the person's click
    writeIntent(dir, 'tx-f', { before: 'the old text\n', after: 'the new text\n' })
    await recoverTransactions(dir)
    expect(await markRecoveriesSeen(dir, shown.end)).toBe(shown.end)
    expect((await readUnseenRecoveries(dir)).records.map((r) => r.rolled_back)).toEqual([['tx-f']])
    // an older offset does not bring dismissed records back; one past the end stops at the end
    expect(await markRecoveriesSeen(dir, 0)).toBe(shown.end)
    const size = fs.statSync(path.join(dir, RECOVERY_LOG_REL)).size
    expect(await markRecoveriesSeen(dir, size + 1000)).toBe(size)
    expect((await readUnseenRecoveries(dir)).records).toEqual([])
    expect(JSON.parse(fs.readFileSync(path.join(dir, RECOVERY_SEEN_REL), 'utf8')).offset).toBe(size)
    // nothing deleted: both records are still in the log
    expect(logLines(dir).map((l) => JSON.parse(l).rolled_back)).toEqual([['tx-e'], ['tx-f']])
  })

  it('a torn last line (a crash while appending) is not shown nor dismissed; the next append ends it and both records read', async () => {
    const dir = fs.realpathSync(tempDir('recovery-log'))
    fs.mkdirSync(path.join(dir, '.skillbench'))
    fs.writeFileSync(path.join(dir, RECOVERY_LOG_REL), '{"id":"half","at":"2026')
    expect(await readUnseenRecoveries(dir)).toEqual({ records: [], end: 0 })
    await appendRecoveryLog(dir, { rolled_back: ['tx-g'], lines: [codedLine('review.recover_rolled_back', { id: 'tx-g', proposal: 'p' })] })
    const unseen = await readUnseenRecoveries(dir)
    expect(unseen.records.map((r) => r.rolled_back)).toEqual([['tx-g']])
    expect(unseen.end).toBe(fs.statSync(path.join(dir, RECOVERY_LOG_REL)).size)
  })
})

describe('a long log is never read whole', () => {
  it('a 4 GiB already-seen part (sparse, unreadable as records) is neither read to list nor to dismiss: the new record shows, the offset moves by fstat', async () => {
    const dir = fs.realpathSync(tempDir('recovery-log-long'))
    fs.mkdirSync(path.join(dir, '.skillbench'))
    const log = path.join(dir, RECOVERY_LOG_REL)
    // 4 GiB of zero bytes, no disk used: reading it whole would take 4 GiB of memory (and is past any cap)
    const seenSize = 4 * 1024 ** 3
    fs.writeFileSync(log, '')
    fs.truncateSync(log, seenSize)
    expect(await markRecoveriesSeen(dir, seenSize)).toBe(seenSize)
    expect(await readUnseenRecoveries(dir)).toEqual({ records: [], end: seenSize })

    await appendRecoveryLog(dir, { rolled_back: ['tx-late'], lines: [codedLine('review.recover_rolled_back', { id: 'tx-late', proposal: 'p' })] })
    const size = fs.statSync(log).size
    const unseen = await readUnseenRecoveries(dir)
    expect(unseen.records.map((r) => r.rolled_back)).toEqual([['tx-late']])
    expect(unseen).toEqual({ records: unseen.records, end: size })
    const shown = await libraryProblems(dir)
    expect(shown.problems.map((p) => p.messageCode)).toEqual(['review.recover_rolled_back'])
    expect(shown.dismissUpTo).toBe(size)
    expect(await markRecoveriesSeen(dir, size)).toBe(size)
    expect((await readUnseenRecoveries(dir)).records).toEqual([])
  }, 30_000)

  it('an unseen part larger than the cap: the newest records show, the unread older bytes are said by code (exact count), dismissing skips them too', async () => {
    const dir = fs.realpathSync(tempDir('recovery-log-cap'))
    fs.mkdirSync(path.join(dir, '.skillbench'))
    const log = path.join(dir, RECOVERY_LOG_REL)
    const line = (i: number): string =>
      JSON.stringify({ id: `r-${i}`, at: '2026-12-03T09:15:00.000Z', pid: 1, rolled_back: [`tx-${i}`], lines: [codedLine('review.recover_rolled_back', { id: `tx-${i}`, proposal: `p-${i}` })] }) + '\n'
    const lines: string[] = []
    for (let bytes = 0, i = 0; bytes < MAX_UNSEEN_BYTES * 1.5; i++) {
      lines.push(line(i))
      bytes += Buffer.byteLength(line(i))
    }
    fs.writeFileSync(log, lines.join(''))
    const size = fs.statSync(log).size
    // the first whole line inside the newest MAX_UNSEEN_BYTES: everything before it is not read
    let firstRead = 0
    let k = 0
    while (firstRead < size - MAX_UNSEEN_BYTES) firstRead += Buffer.byteLength(lines[k++]!)
    const readCount = lines.length - k

    const unseen = await readUnseenRecoveries(dir)
    expect(unseen.end).toBe(size)
    expect(unseen.records.map((r) => r.id)).toEqual(lines.slice(-50).map((l) => JSON.parse(l).id))
    expect(unseen.problems).toEqual([
      codedLine('review.recovery_log_unread', { path: log, bytes: firstRead, cap: MAX_UNSEEN_BYTES }),
      codedLine('review.recovery_log_more', { n: readCount - 50, path: log })
    ])
    expect(translateLine(unseen.problems![0]!, unseen.problems![0]!.message, 'zh')).toBe(`未查看的恢复记录超过一次读取的上限（${MAX_UNSEEN_BYTES} 字节）：其中最早的 ${firstRead} 字节未在此显示；它们仍保存在 ${log}`)
    // the app's banner: first what is not shown, then the records; dismissing takes all of it
    const shown = await libraryProblems(dir)
    expect(shown.problems.slice(0, 3).map((p) => p.messageCode)).toEqual(['review.recovery_log_unread', 'review.recovery_log_more', 'review.recover_rolled_back'])
    expect(shown.problems).toHaveLength(52)
    expect(shown.dismissUpTo).toBe(size)
    expect(await markRecoveriesSeen(dir, shown.dismissUpTo!)).toBe(size)
    expect(await libraryProblems(dir)).toEqual({ problems: [] })

    // a seen offset inside the window's reach: nothing is cut, only the records after it show
    fs.writeFileSync(path.join(dir, RECOVERY_SEEN_REL), JSON.stringify({ offset: size - Buffer.byteLength(lines.at(-1)!) - Buffer.byteLength(lines.at(-2)!) }))
    expect(await readUnseenRecoveries(dir)).toEqual({ records: lines.slice(-2).map((l) => JSON.parse(l)), end: size })
  }, 30_000)
})

describe('processes appending at once', () => {
  let child = ''
  beforeAll(async () => {
    child = await bundleChild(path.join(__dirname, 'recovery-log-child.ts'), tempDir('recovery-log-bundle'))
  })

  function run(root: string, tag: string, count: number, barrier: string, parties: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const p = spawn(process.execPath, [child, root, tag, String(count), barrier, String(parties)], { stdio: ['ignore', 'ignore', 'pipe'] })
      let err = ''
      p.stderr.on('data', (d: Buffer) => (err += d.toString()))
      p.on('error', reject)
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child ${tag} exited ${code}: ${err}`))))
    })
  }

  it('three processes appending 60 records each at the same moment: all 180 are there, each once, every line whole', async () => {
    const dir = fs.realpathSync(tempDir('recovery-log-race'))
    const barrier = tempDir('recovery-log-barrier')
    await Promise.all(['a', 'b', 'c'].map((tag) => run(dir, tag, 60, barrier, 3)))
    const lines = logLines(dir)
    expect(lines).toHaveLength(180)
    const ids = lines.map((l) => (JSON.parse(l) as { rolled_back: string[] }).rolled_back[0])
    expect(new Set(ids).size).toBe(180)
    for (const tag of ['a', 'b', 'c']) expect(ids.filter((id) => id!.startsWith(`${tag}-`)).map((id) => Number(id!.split('-')[1]))).toEqual([...Array(60).keys()])
    // they really ran side by side: the tags interleave in the file
    const switches = ids.filter((id, i) => i > 0 && id![0] !== ids[i - 1]![0]).length
    expect(switches).toBeGreaterThan(2)
    const listed = await readUnseenRecoveries(dir)
    expect(listed.records).toHaveLength(50)
    // the 130 older ones are said, not dropped silently
    expect(listed.problems).toEqual([codedLine('review.recovery_log_more', { n: 130, path: path.join(dir, RECOVERY_LOG_REL) })])
  }, 60_000)
})
