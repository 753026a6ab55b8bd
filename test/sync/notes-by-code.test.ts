/**
 * What a sync says beside its counts, and why a library is not shared, by code: a killed sync's git lock files
 * (real git, real files) come back as a coded note, the CLI prints the same English, the app's words are by code.
 */
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { syncLibrary } from '../../src/main/sync/sync'
import { syncStatus } from '../../src/main/sync/status'
import { translateLine, translateMessage } from '../../src/renderer/i18n/messages-errors'
import { BIN, makeTeam, type Team } from './team'

let team: Team | undefined

afterEach(() => {
  team?.cleanup()
  team = undefined
})

describe('sync notes and status by code', () => {
  it("a killed sync's lock files: removed, told as a coded note in English (CLI) and Chinese (app)", async () => {
    team = makeTeam()
    const alice = team.machine('Alice')
    const lib = await alice.open()
    await lib.create({ title: 'Read PDF files', usage_conditions: 'When a task reads a PDF', body: '# PDF\n\nOpen it.\n', skill_id: '1700000001' })
    expect(alice.sync(['--init', team.url]).code).toBe(0)
    // what a sync killed mid-way leaves: its running mark, and git's lock made after it started
    const stamp = (): void => {
      fs.writeFileSync(path.join(alice.lib, '.skillbench', 'sync', 'running.json'), JSON.stringify({ pid: 999999, started: Date.now() - 2000 }))
      fs.writeFileSync(path.join(alice.lib, '.git', 'index.lock'), '')
    }
    stamp()
    const report = await syncLibrary({ library: alice.lib, env: alice.env })
    expect(fs.existsSync(path.join(alice.lib, '.git', 'index.lock'))).toBe(false)
    expect(report.notes).toEqual([{ message: 'removed git lock files a killed sync left: index.lock', messageCode: 'sync.note_locks_removed', params: { files: 'index.lock' } }])
    expect(translateLine(report.notes[0], report.notes[0]!.message, 'zh')).toBe('已删除被中断的同步留下的 git 锁文件：index.lock')
    // the CLI's words are the note's English
    stamp()
    const cli = spawnSync(process.execPath, [BIN, 'sync', '--library', alice.lib], { env: alice.env, encoding: 'utf8', timeout: 120_000 })
    expect(cli.status, cli.stderr).toBe(0)
    expect(cli.stdout).toContain('  note: removed git lock files a killed sync left: index.lock\n')
  })

  it('why a library is not shared: English as before, the code and params beside it', async () => {
    team = makeTeam()
    const plain = path.join(team.dir, 'plain')
    fs.mkdirSync(plain)
    const s = await syncStatus(plain)
    expect(s).toMatchObject({ shared: false, reason: 'not a git repository', reason_code: 'sync.status_not_repo', reason_params: {} })
    expect(translateMessage({ messageCode: s.reason_code, params: s.reason_params }, s.reason!, 'zh')).toBe('不是 git 仓库')
    const gone = await syncStatus(path.join(team.dir, 'nowhere'))
    expect(gone).toMatchObject({ reason: 'the library folder does not exist', reason_code: 'sync.status_no_folder' })
  })
})
