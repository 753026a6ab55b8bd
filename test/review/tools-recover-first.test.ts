/**
 * The agents' skill tools finish a change a crash interrupted before they write (review/recover-first.ts, run by
 * the store inside the lock of each write, as every host passes it): a real `skillbench edit`, `rate` and `query`
 * process, and a real MCP server (direct edits, rating, a proposal). Before, the agent's write landed on the half of
 * the change, and the later recovery set it aside (review.recover_failed) — or, a skill the change had retired, the
 * rating was refused.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { childEnv } from '../helpers/mcp-env'
import { makeLibrary, skillFile } from '../mcp/fixtures'

const PROJECT = path.resolve(__dirname, '..', '..')
const BIN = path.join(PROJECT, 'bin', 'skillbench.cjs')
const ENV = childEnv({ SKILLBENCH_CONFIG_DIR: fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'sb-recover-settings-')), SKILLBENCH_SEARCH_SERVER: 'off' })

const dirs: string[] = []
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined)
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

async function library(): Promise<{ dir: string; ids: { calc: string; joke: string; git: string } }> {
  const made = await makeLibrary()
  dirs.push(made.dir)
  return { dir: fs.realpathSync(made.dir), ids: made.ids }
}

type Op = { op: 'write'; path: string; before: string; after: string } | { op: 'move'; from: string; to: string; file: ''; text: string }

/** A transaction killed after its ops were done and before its journal record: its intent, and the disk as it left it. */
function killedChange(lib: string, txId: string, ops: Op[]): void {
  for (const op of ops) {
    if (op.op === 'write') fs.writeFileSync(path.join(lib, op.path), op.after)
    else {
      fs.mkdirSync(path.dirname(path.join(lib, op.to)), { recursive: true })
      fs.renameSync(path.join(lib, op.from), path.join(lib, op.to))
    }
  }
  fs.mkdirSync(path.join(lib, '.skillbench', 'tx'), { recursive: true })
  const record = { id: txId, action: 'apply', proposal_id: `p-${txId}`, kind: 'merge', by: 'u', at: '2026-12-03T09:15:00Z', changes: [], ops }
  fs.writeFileSync(path.join(lib, '.skillbench', 'tx', `${txId}.json`), JSON.stringify({ id: txId, record }))
}

/** A merge killed after rewriting the skill file at `abs`: returns its text before. */
function killedMerge(lib: string, abs: string, txId: string): string {
  const before = fs.readFileSync(abs, 'utf8')
  const after = before.replace(/\n# Experience\n|\n# 经验\n|\n(?=Run git)/, '\nWHAT THE KILLED MERGE WROTE\n')
  expect(after).not.toBe(before)
  killedChange(lib, txId, [{ op: 'write', path: path.relative(lib, abs), before, after }])
  return before
}

function recoveryLog(lib: string): { rolled_back: string[]; lines: { messageCode: string }[] }[] {
  const file = path.join(lib, '.skillbench', 'recovery-log')
  if (!fs.existsSync(file)) return []
  return fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
}

/** Nothing interrupted is left, nothing was set aside, and the log says the change was rolled back. */
function expectRolledBack(lib: string, txIds: string[]): void {
  expect(fs.readdirSync(path.join(lib, '.skillbench', 'tx'))).toEqual([])
  expect(recoveryLog(lib).map((r) => r.rolled_back)).toEqual(txIds.map((id) => [id]))
  expect(recoveryLog(lib).flatMap((r) => r.lines.map((l) => l.messageCode))).toEqual(txIds.map(() => 'review.recover_rolled_back'))
}

/** What the CLI and an MCP answer say of a rollback: the log's own line (the app's banner words), as {code, params, message}. */
function rolledBackEntry(lib: string, txId: string): { code: string; params: Record<string, unknown>; message: string } {
  const line = recoveryLog(lib)
    .flatMap((r) => r.lines as unknown as { message: string; messageCode: string; params: Record<string, unknown> }[])
    .find((l) => l.params.id === txId)!
  expect(line.message).toBe(`${txId}: an interrupted change (proposal p-${txId}) was rolled back; nothing of it stays applied`)
  return { code: line.messageCode, params: line.params, message: line.message }
}

function cli(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  return cliIn(ENV, ...argv)
}

function cliIn(env: Record<string, string>, ...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', cwd: PROJECT, env, timeout: 90_000 })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A search daemon of the library, up (as a query of a large library starts one); stopped after the test. */
async function searchDaemon(lib: string, env: Record<string, string>): Promise<void> {
  const daemon = spawn(process.execPath, [BIN, 'search-server', '--library', lib], { cwd: PROJECT, env, stdio: 'ignore' })
  closers.push(async () => {
    cli('search-server', '--stop', '--library', lib)
    if (daemon.exitCode === null) await new Promise((resolve) => daemon.once('exit', resolve))
  })
  const end = Date.now() + 30_000
  while (!cli('search-server', '--status', '--library', lib).stdout.startsWith('a search daemon answers')) {
    if (Date.now() > end || daemon.exitCode !== null) throw new Error('the search daemon did not start')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function mcpServer(lib: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--library', lib, ...args], cwd: PROJECT, stderr: 'pipe', env: ENV })
  const client = new Client({ name: 'sb-recover-first', version: '1.0.0' })
  await client.connect(transport)
  closers.push(() => client.close())
  return client
}

/** A tool call's structured answer (its text content is checked to be the same JSON). */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name, arguments: args })) as { structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] }
  expect(JSON.parse(r.content[0]!.text)).toEqual(r.structuredContent)
  return r.structuredContent ?? {}
}

describe('the agents\' skill tools finish an interrupted change before they write', () => {
  it('skillbench edit (a real process): the killed merge is rolled back first, the agent\'s edit lands on the text before it, nothing is set aside', async () => {
    const { dir: lib, ids } = await library()
    const file = skillFile(lib, ids.calc)
    const before = killedMerge(lib, file, 'tx-edit-1')

    const r = cli('edit', ids.calc, '--mode', 'append', '--text', 'Also test negative numbers.', '--library', lib, '--json')
    expect(r.code).toBe(0)
    const answer = JSON.parse(r.stdout)
    expect(answer).toMatchObject({ status: 'success', skill_id: ids.calc, edit_mode: 'append' })
    // the command says what recovery did: on stderr in the banner's words, in --json as `recovered` (added last)
    const entry = rolledBackEntry(lib, 'tx-edit-1')
    expect(r.stderr).toBe(`skillbench edit: ${entry.message}\n`)
    expect(answer.recovered).toEqual([entry])
    const plain = cli('edit', ids.calc, '--mode', 'append', '--text', 'And zero.', '--library', lib, '--json')
    expect([plain.code, plain.stderr]).toEqual([0, ''])
    expect(Object.keys(answer)).toEqual([...Object.keys(JSON.parse(plain.stdout)), 'recovered'])
    const text = fs.readFileSync(file, 'utf8')
    expect(text).not.toContain('KILLED MERGE')
    expect(text).toContain('Also test negative numbers.')
    // the rollback's text with the appends (only updated_at differs in the front matter)
    expect(text.replace(/updated_at: .*\n/, '')).toBe(`${before}Also test negative numbers.\nAnd zero.`.replace(/updated_at: .*\n/, ''))
    expectRolledBack(lib, ['tx-edit-1'])
  })

  it('skillbench rate (a real process): a retire killed after its move is undone first, so the skill is active again and rated', async () => {
    const { dir: lib, ids } = await library()
    const file = skillFile(lib, ids.git)
    const name = path.basename(file)
    killedChange(lib, 'tx-retire-1', [{ op: 'move', from: name, to: `legacy/${name}`, file: '', text: fs.readFileSync(file, 'utf8') }])
    expect(fs.existsSync(file)).toBe(false)

    // without --json: the line on stderr, stdout as before
    const r = cli('rate', ids.git, '1', '--library', lib)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(`skillbench rate: ${rolledBackEntry(lib, 'tx-retire-1').message}\n`)
    expect(r.stdout).not.toContain('rolled back')
    expect(fs.readFileSync(file, 'utf8')).toMatch(/quality_index: 0\.65/)
    expect(fs.existsSync(path.join(lib, 'legacy', name))).toBe(false)
    expectRolledBack(lib, ['tx-retire-1'])
  })

  it('skillbench query (a real process, in process): the uses it folds into the files land after the rollback', async () => {
    const { dir: lib, ids } = await library()
    const file = skillFile(lib, ids.calc)
    const before = killedMerge(lib, file, 'tx-query-1')

    const r = cli('query', 'python calculator unit tests', '--top', '1', '--no-server', '--library', lib, '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([ids.calc])
    expect(JSON.parse(r.stdout).recovered).toEqual([rolledBackEntry(lib, 'tx-query-1')])
    expect(r.stderr).toBe(`skillbench query: ${rolledBackEntry(lib, 'tx-query-1').message}\n`)
    const text = fs.readFileSync(file, 'utf8')
    expect(text).not.toContain('KILLED MERGE')
    expect(text).toMatch(/fetch_count: 1\n/)
    expect(text.replace(/(fetch_count|last_used_at): .*\n/g, '')).toBe(before.replace(/(fetch_count|last_used_at): .*\n/g, ''))
    expectRolledBack(lib, ['tx-query-1'])
  })

  it('skillbench query answered by the search daemon: the daemon records the uses and folds them after the rollback', async () => {
    const { dir: lib, ids } = await library()
    const env = { ...ENV, SKILLBENCH_SEARCH_SERVER: 'on', SKILLBENCH_SEARCH_TRACE: '1' }
    await searchDaemon(lib, env)
    const file = skillFile(lib, ids.calc)
    const before = killedMerge(lib, file, 'tx-daemon-1')

    const r = cliIn(env, 'query', 'python calculator unit tests', '--top', '1', '--library', lib, '--json')
    expect(r.stderr).toContain('[search] answered by the search daemon')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).skills.map((s: { skill_id: string }) => s.skill_id)).toEqual([ids.calc])
    // the daemon recovered, and the command says it as an in-process answer does
    expect(JSON.parse(r.stdout).recovered).toEqual([rolledBackEntry(lib, 'tx-daemon-1')])
    expect(r.stderr.split('\n')).toContain(`skillbench query: ${rolledBackEntry(lib, 'tx-daemon-1').message}`)

    const text = fs.readFileSync(file, 'utf8')
    expect(text).toMatch(/fetch_count: 1\n/)
    expect(text.replace(/(fetch_count|last_used_at): .*\n/g, '')).toBe(before.replace(/(fetch_count|last_used_at): .*\n/g, ''))
    expectRolledBack(lib, ['tx-daemon-1'])
    // the next question has nothing to recover: no line, no field
    const again = cliIn(env, 'query', 'python calculator unit tests', '--top', '1', '--library', lib, '--json')
    expect(again.stderr).toContain('[search] answered by the search daemon')
    expect(again.stderr).not.toContain('rolled back')
    expect(JSON.parse(again.stdout).recovered).toBeUndefined()
  })

  it('a recovery that cannot set a change right is said too (review.recover_failed, by code with its nested problem), and a command that then fails keeps `recovered` in its error JSON', async () => {
    const { dir: lib, ids } = await library()
    const file = skillFile(lib, ids.calc)
    killedMerge(lib, file, 'tx-fail-1')
    // edited by hand since the killed merge: neither its old nor its new text
    fs.appendFileSync(file, 'edited by hand\n')
    const rel = path.relative(lib, file)
    const r = cli('rate', ids.joke, '0.5', '--library', lib, '--json')
    expect(r.code).toBe(0)
    const message = `tx-fail-1: ${rel} matches neither its old nor its new text`
    expect(r.stderr).toBe(`skillbench rate: ${message}\n`)
    expect(JSON.parse(r.stdout).recovered).toEqual([{ code: 'review.recover_failed', params: { id: 'tx-fail-1', problems: { messageCode: 'review.undo_neither', params: { path: rel } } }, message }])
    expect(recoveryLog(lib).flatMap((x) => x.lines.map((l) => (l as unknown as { message: string }).message))).toEqual([message])

    // undo of an id never applied fails, after rolling back what a kill left: the failure JSON says both
    const joke = skillFile(lib, ids.joke)
    killedMerge(lib, joke, 'tx-fail-2')
    const u = cli('undo', 'never-applied', '--library', lib, '--json')
    expect(u.code).toBe(1)
    const failure = JSON.parse(u.stdout)
    expect(failure).toMatchObject({ status: 'error' })
    expect(failure.recovered).toEqual([rolledBackEntry(lib, 'tx-fail-2')])
    expect(u.stderr.split('\n')[0]).toBe(`skillbench undo: ${rolledBackEntry(lib, 'tx-fail-2').message}`)
  })

  it('an MCP server (a real process): direct edits and ratings finish a change interrupted before it started or while it runs; a proposal is made on the rolled-back text', async () => {
    const { dir: lib, ids } = await library()
    const calc = skillFile(lib, ids.calc)
    const joke = skillFile(lib, ids.joke)
    const calcBefore = killedMerge(lib, calc, 'tx-mcp-1')
    const client = await mcpServer(lib, ['--direct-edit'])

    const edited = await call(client, 'edit_skill', { skill_id: ids.calc, edit_mode: 'append', code_edit: 'Check float rounding.' })
    expect(edited).toMatchObject({ status: 'success', skill_id: ids.calc })
    expect(edited.recovered).toEqual([rolledBackEntry(lib, 'tx-mcp-1')])
    expect(fs.readFileSync(calc, 'utf8').replace(/updated_at: .*\n/, '')).toBe(`${calcBefore}Check float rounding.`.replace(/updated_at: .*\n/, ''))
    expectRolledBack(lib, ['tx-mcp-1'])

    // killed while the server runs: its next write finishes it too (the store it keeps open recovers at each write)
    const jokeBefore = killedMerge(lib, joke, 'tx-mcp-2')
    const rated = await call(client, 'rate_skill', { skill_id: ids.joke, rating: 0 })
    expect(rated).toMatchObject({ status: 'success', skill_id: ids.joke, new_quality_index: 0.35 })
    // each call says only the recoveries it ran: this one the second change, not the first again
    expect(rated.recovered).toEqual([rolledBackEntry(lib, 'tx-mcp-2')])
    expect((await call(client, 'rate_skill', { skill_id: ids.joke, rating: 1 })).recovered).toBeUndefined()
    expect(fs.readFileSync(joke, 'utf8').replace(/(quality_index|updated_at): .*\n/g, '')).toBe(jokeBefore.replace(/(quality_index|updated_at): .*\n/g, ''))
    expectRolledBack(lib, ['tx-mcp-1', 'tx-mcp-2'])

    // two calls in flight, one interrupted change: the call whose write recovered says it, the other does not
    const calcNow = fs.readFileSync(calc, 'utf8')
    killedMerge(lib, calc, 'tx-mcp-both')
    const both = await Promise.all([call(client, 'rate_skill', { skill_id: ids.calc, rating: 1 }), call(client, 'rate_skill', { skill_id: ids.joke, rating: 1 })])
    expect(both.map((a) => a.status)).toEqual(['success', 'success'])
    expect(both.filter((a) => a.recovered !== undefined).map((a) => a.recovered)).toEqual([[rolledBackEntry(lib, 'tx-mcp-both')]])
    expect(fs.readFileSync(calc, 'utf8').replace(/(quality_index|updated_at): .*\n/g, '')).toBe(calcNow.replace(/(quality_index|updated_at): .*\n/g, ''))
    expectRolledBack(lib, ['tx-mcp-1', 'tx-mcp-2', 'tx-mcp-both'])

    // proposal mode writes no skill file, but its "before" must not be a half change (accepting it would conflict)
    const proposing = await mcpServer(lib, [])
    const gitFile = skillFile(lib, ids.git)
    const gitBefore = killedMerge(lib, gitFile, 'tx-mcp-3')
    const proposed = await call(proposing, 'edit_skill', { skill_id: ids.git, edit_mode: 'append', code_edit: 'Prefer git rebase --continue.' })
    expect(proposed).toMatchObject({ status: 'success', pending: true })
    expect(proposed.recovered).toEqual([rolledBackEntry(lib, 'tx-mcp-3')])
    const proposal = JSON.parse(fs.readFileSync(path.join(lib, String(proposed.proposal_path)), 'utf8')) as { changes: { before: string }[] }
    expect(proposal.changes[0]!.before).toBe(gitBefore)
    expect(fs.readFileSync(gitFile, 'utf8')).toBe(gitBefore)
    expectRolledBack(lib, ['tx-mcp-1', 'tx-mcp-2', 'tx-mcp-both', 'tx-mcp-3'])
  })

  it('the MCP memory tools (a real process) run no recovery and say none: they leave an interrupted change to the next skill write, which says it', async () => {
    const { dir: lib, ids } = await library()
    const calc = skillFile(lib, ids.calc)
    killedMerge(lib, calc, 'tx-mem-1')
    const half = fs.readFileSync(calc, 'utf8')
    const intent = path.join(lib, '.skillbench', 'tx', 'tx-mem-1.json')
    const ws = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'sb-recover-memory-'))
    dirs.push(ws)
    /** Nothing was recovered: the intent waits, the skill holds the half change, no log, no answer says otherwise. */
    const untouched = (answer: Record<string, unknown>): void => {
      expect(answer).not.toHaveProperty('recovered')
      expect(fs.existsSync(intent)).toBe(true)
      expect(fs.readFileSync(calc, 'utf8')).toBe(half)
      expect(recoveryLog(lib)).toEqual([])
    }

    // proposal mode (the default): the proposal goes into the plan, which no transaction's rollback touches
    const proposing = await mcpServer(lib, ['--memory', ws])
    const lesson = await call(proposing, 'add_lesson', { lesson: 'Only use the registered tools.' })
    expect(lesson).toMatchObject({ status: 'success', pending: true, message_code: 'tool.memory_proposed' })
    untouched(lesson)
    const preference = await call(proposing, 'record_preference', { preference: 'answer briefly' })
    expect(preference).toMatchObject({ status: 'success', pending: true })
    untouched(preference)

    // written at once: the memory folder, outside the library
    const direct = await mcpServer(lib, ['--memory', ws, '--direct-edit'])
    const added = await call(direct, 'add_lesson', { lesson: 'Check float rounding.' })
    expect(added).toMatchObject({ status: 'success', added: true, message_code: 'tool.memory_added' })
    untouched(added)
    expect(fs.readFileSync(path.join(ws, 'memory', 'lessons.md'), 'utf8')).toContain('- Check float rounding.')

    // the server's next skill write recovers first and says so; the two memory proposals are still in the plan
    const rated = await call(direct, 'rate_skill', { skill_id: ids.calc, rating: 1 })
    expect(rated).toMatchObject({ status: 'success', recovered: [rolledBackEntry(lib, 'tx-mem-1')] })
    expectRolledBack(lib, ['tx-mem-1'])
    const plan = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: { id: string }[] }
    expect(plan.proposals.map((p) => p.id).sort()).toEqual([lesson.proposal_id, preference.proposal_id].sort())
  })
})
