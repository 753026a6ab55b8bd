/**
 * The search daemon in this process (runSearchDaemon), for what a real daemon process cannot be made to do: a trace
 * sink (`onRefresh`, SKILLBENCH_SEARCH_TRACE=1's stderr line) that throws. A refresh taken in without a question and
 * the questions share one queue: a failing sink must cost its line only, never the questions behind it.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runSearchDaemon } from '../../src/main/cli/search-daemon'
import { notificationGap } from '../../src/main/search/change-feed'
import { searchDaemonSocket } from '../../src/main/search/daemon/address'
import { askSearchDaemon, daemonAnswers } from '../../src/main/search/daemon/client'
import { makeLibrary } from './library-fixture'

async function until(what: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

const watched = process.platform === 'linux' && notificationGap(fs.realpathSync(os.tmpdir())) === null

describe.runIf(watched)('the search daemon in process', () => {
  it('answers the questions after a refresh whose trace line failed, and steps down cleanly', async () => {
    const dir = makeLibrary(10)
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-daemon-trace-'))
    const env = { ...process.env, SKILLBENCH_CACHE_DIR: cache, SKILLBENCH_CONFIG_DIR: cache }
    const socket = searchDaemonSocket(dir, env)!
    let refreshes = 0
    const run = runSearchDaemon(dir, {
      env,
      idleMs: 60_000,
      checkMs: 50,
      onRefresh: () => {
        refreshes++
        throw new Error('stderr is gone')
      }
    })
    try {
      await until(() => daemonAnswers(socket))
      fs.writeFileSync(path.join(dir, 'skill_3.md'), fs.readFileSync(path.join(dir, 'skill_3.md'), 'utf8') + '\nokapimelon\n')
      await until(() => refreshes > 0)
      const asked = await askSearchDaemon(socket, { op: 'query', root: dir, text: 'okapimelon', top: 1, touch: false, json: true, via: 'cli' }, 5_000)
      expect('answered' in asked ? JSON.parse(asked.answered.stdout.toString('utf8')).skills.map((s: { path: string }) => s.path) : asked).toEqual(['skill_3.md'])
    } finally {
      // its socket removed: the daemon steps down at its next check
      fs.rmSync(socket, { force: true })
      expect(await run).toBe(0)
      fs.rmSync(dir, { recursive: true, force: true })
      fs.rmSync(cache, { recursive: true, force: true })
    }
  }, 60_000)
})
