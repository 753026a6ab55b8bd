/**
 * Sync at scale (issue 39): a library of N skills (default 10,000) shared through a bare repository; the other
 * machine changes M of them (default 1,000); this machine syncs. Prints the time of that sync and checks that
 * only the changed files were rewritten (inode and mtime of every other file unchanged).
 * Run: npx tsx bench/sync-scale.ts [N] [M]
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { syncLibrary } from '../src/main/sync/sync'
import { initSync } from '../src/main/sync/init'

const N = Number(process.argv[2] ?? 10_000)
const M = Number(process.argv[3] ?? 1_000)
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sync-bench-')))
const env = (name: string): NodeJS.ProcessEnv => ({ ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(dir, '.gitconfig'), GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: `${name}@example.org`, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: `${name}@example.org` })
const skill = (i: number, extra = ''): string =>
  `---\nskill_id: '${1_600_000_000 + i}'\ntitle: Skill number ${i}\nusage_conditions: When task ${i} comes up\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00.000000'\nupdated_at: '2026-01-01T00:00:00.000000'\nlast_used_at: null\nuser_preferences: ''\n---\n\n# Skill ${i}\n\nStep one for ${i}.\n\nStep two for ${i}.\n${extra}`

function stats(lib: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const name of fs.readdirSync(lib)) {
    if (!name.endsWith('.md')) continue
    const st = fs.statSync(path.join(lib, name))
    out.set(name, `${st.ino}:${st.mtimeMs}`)
  }
  return out
}

async function main(): Promise<void> {
  const a = path.join(dir, 'a')
  const b = path.join(dir, 'b')
  const bare = path.join(dir, 'team.git')
  fs.mkdirSync(a)
  for (let i = 0; i < N; i++) fs.writeFileSync(path.join(a, `skill_${i}.md`), skill(i))
  spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare])
  await initSync({ library: a, url: `file://${bare}`, env: env('a') })
  let t = Date.now()
  await syncLibrary({ library: a, env: env('a') })
  console.log(`first sync of ${N} skills (commit + push): ${((Date.now() - t) / 1000).toFixed(2)} s`)
  spawnSync('git', ['clone', '-q', `file://${bare}`, b], { env: env('b') })
  for (let i = 0; i < M; i++) fs.writeFileSync(path.join(b, `skill_${i * Math.floor(N / M)}.md`), skill(i * Math.floor(N / M), '\nStep three, added on the other machine.\n'))
  t = Date.now()
  await syncLibrary({ library: b, env: env('b') })
  console.log(`other machine: commit + push of ${M} changed skills: ${((Date.now() - t) / 1000).toFixed(2)} s`)
  for (const mode of ['fast-forward', 'merge'] as const) {
    if (mode === 'merge') {
      // both sides moved: this machine changed one skill, the other machine M more
      fs.appendFileSync(path.join(a, 'skill_1.md'), '\nA local note.\n')
      for (let i = 0; i < M; i++) fs.writeFileSync(path.join(b, `skill_${i * Math.floor(N / M)}.md`), skill(i * Math.floor(N / M), '\nStep four, again from the other machine.\n'))
      await syncLibrary({ library: b, env: env('b') })
    }
    const before = stats(a)
    t = Date.now()
    const r = await syncLibrary({ library: a, env: env('a') })
    const ms = Date.now() - t
    const after = stats(a)
    let rewritten = 0
    for (const [name, key] of after) if (before.get(name) !== key) rewritten++
    console.log(`this machine, ${mode}: sync receiving ${M} changed of ${N}: ${(ms / 1000).toFixed(2)} s; files written ${r.files_written}; files whose inode or mtime changed: ${rewritten} (expected ${M})`)
  }
  fs.rmSync(dir, { recursive: true, force: true })
}

void main()
