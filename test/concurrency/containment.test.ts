/**
 * Every path the product writes, appends, moves or reads as bookkeeping stays inside the library: a symbolic
 * link (of a folder or a file) that leads outside is refused with path_escape, through the CLI, an MCP server and
 * the web API, and a hashed sentinel tree outside is unchanged afterwards.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, type RunningWebServer } from '../../src/main/web-server/http-server'
import { openLibrary } from '../../src/main/store/library'
import { reflectionLogName } from '../../src/main/reflect/reflection-log'
import { makeLibrary } from '../curate/fixtures'
import { CALC_LOG, makeRoot } from '../reflect/make-root'
import { hashTree, tempDir } from '../store/helpers'
import { cli, startMcpAgent } from './agents'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

/** An outside folder with a few files, and a check that nothing in it changed. */
function sentinel(): { dir: string; file: string; unchanged: () => void } {
  const dir = tempDir('sb-outside-')
  dirs.push(dir)
  fs.writeFileSync(path.join(dir, 'journal'), 'outside journal\n')
  fs.writeFileSync(path.join(dir, 'notes.md'), '# not the library\n')
  fs.mkdirSync(path.join(dir, 'sub'))
  fs.writeFileSync(path.join(dir, 'sub', 'keep.txt'), 'keep')
  const before = hashTree(dir)
  return { dir, file: path.join(dir, 'journal'), unchanged: () => expect(hashTree(dir)).toEqual(before) }
}

const SKILLS = [
  { id: '1768600001', title: 'Python calculator with tests', body: '1. Write calculator.py.\n2. Raise ValueError on division by zero.\n3. Test with pytest.\n' },
  { id: '1768600002', title: 'Python calculator with unit tests', body: '1. Write calculator.py.\n2. Raise ValueError on division by zero.\n3. Test with pytest.\n4. Keep tests next to it.\n' },
  { id: '1768600003', title: 'Resolve git merge conflicts', body: 'Run git status, fix the markers, git add, continue.\n' }
]

function library(): string {
  const dir = fs.realpathSync(makeLibrary(SKILLS))
  dirs.push(dir)
  return dir
}

const ESCAPE = /symbolic link.*nothing was written outside the library|path_escape|symbolic link/

describe('containment through the CLI', () => {
  it('legacy/ a link out: delete is refused and the skill stays active', async () => {
    const lib = library()
    const out = sentinel()
    fs.symlinkSync(out.dir, path.join(lib, 'legacy'))
    const r = await cli(['delete', '1768600003', '--library', lib])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/legacy: is a symbolic link/)
    expect(fs.existsSync(path.join(lib, 'skill_1768600003.md'))).toBe(true)
    out.unchanged()
  })

  it('.skillbench/ a link out: query with touch, curate and rate are refused; nothing written outside', async () => {
    const lib = library()
    const out = sentinel()
    fs.symlinkSync(out.dir, path.join(lib, '.skillbench'))
    const q = await cli(['query', 'python calculator', '--library', lib, '--json'])
    expect(q.code).toBe(1)
    expect(JSON.parse(q.stdout).message).toMatch(/could not be recorded: .*\.skillbench: is a symbolic link/)
    const c = await cli(['curate', '--library', lib])
    expect(c.code).toBe(1)
    expect(c.stderr).toMatch(ESCAPE)
    const before = fs.readFileSync(path.join(lib, 'skill_1768600003.md'), 'utf8')
    const rate = await cli(['rate', '1768600003', '1', '--library', lib])
    expect(rate.code).toBe(1)
    expect(fs.readFileSync(path.join(lib, 'skill_1768600003.md'), 'utf8')).toBe(before)
    // Reading through it is refused too (never reads the outside).
    const p = await cli(['proposals', '--library', lib])
    expect(p.code).toBe(1)
    expect(p.stderr).toMatch(ESCAPE)
    out.unchanged()
  })

  it('.skillbench/journal, .skillbench/tx, .skillbench/plan.json and the ledger links out: accept and query are refused before anything changes', async () => {
    const lib = library()
    const out = sentinel()
    expect((await cli(['curate', '--library', lib, '--json'])).code).toBe(0)
    const plan = JSON.parse(fs.readFileSync(path.join(lib, '.skillbench', 'plan.json'), 'utf8')) as { proposals: { id: string; kind: string }[] }
    const merge = plan.proposals.find((p) => p.kind === 'merge')!
    const visible = (): Record<string, string> => Object.fromEntries(SKILLS.map((s) => [s.id, fs.readFileSync(path.join(lib, `skill_${s.id}.md`), 'utf8')]))
    const before = visible()
    fs.symlinkSync(out.file, path.join(lib, '.skillbench', 'journal'))
    let r = await cli(['accept', merge.id, '--library', lib])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/journal: is a symbolic link/)
    expect(visible()).toEqual(before)
    fs.unlinkSync(path.join(lib, '.skillbench', 'journal'))
    fs.symlinkSync(path.join(out.dir, 'sub'), path.join(lib, '.skillbench', 'tx'))
    r = await cli(['accept', merge.id, '--library', lib])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/tx: is a symbolic link/)
    expect(visible()).toEqual(before)
    fs.symlinkSync(out.file, path.join(lib, '.skillbench', 'usage.jsonl'))
    const q = await cli(['query', 'git conflict', '--library', lib, '--json'])
    expect(q.code).toBe(1)
    fs.renameSync(path.join(lib, '.skillbench', 'plan.json'), path.join(out.dir, 'plan.json'))
    const snapshot = hashTree(out.dir)
    fs.symlinkSync(path.join(out.dir, 'plan.json'), path.join(lib, '.skillbench', 'plan.json'))
    r = await cli(['proposals', '--library', lib])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/plan\.json: is a symbolic link/)
    expect(hashTree(out.dir)).toEqual(snapshot)
  })

  it('logs/ or the day\'s reflection log a link out: reflect never appends to the outside file', async () => {
    const out = sentinel()
    // logs/ itself a link: the library refuses to be used for reflection.
    let root = makeRoot([{ dir: 'alice/output_20260101_100000', log: CALC_LOG }])
    dirs.push(root)
    let lib = path.join(root, 'alice', 'general', 'experience')
    fs.mkdirSync(lib, { recursive: true })
    fs.symlinkSync(out.dir, path.join(lib, 'logs'))
    let r = await cli(['reflect', '--root-dir', root, '--user', 'alice'])
    expect(r.stdout + r.stderr).toMatch(/logs: is a symbolic link/)
    // The day's log file a link: the skill is made, the log line is refused and said.
    root = makeRoot([{ dir: 'alice/output_20260101_100000', log: CALC_LOG }])
    dirs.push(root)
    lib = path.join(root, 'alice', 'general', 'experience')
    fs.mkdirSync(path.join(lib, 'logs'), { recursive: true })
    fs.symlinkSync(out.file, path.join(lib, 'logs', reflectionLogName(new Date())))
    r = await cli(['reflect', '--root-dir', root, '--user', 'alice'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Created 1 skill/)
    expect(r.stdout).toMatch(/⚠ the reflection log .* could not be written: .*symbolic link/)
    out.unchanged()
  })

  it('a memory folder that is a link out: memory writes are refused', async () => {
    const ws = tempDir('sb-ws-')
    dirs.push(ws)
    const out = sentinel()
    fs.symlinkSync(out.dir, path.join(ws, 'memory'))
    const r = await cli(['memory', 'add-lesson', '--text', 'Always run the tests before committing', '--workspace', ws])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/memory: is a symbolic link/)
    out.unchanged()
  })

  it('codes/ a link out: copy-files is refused; index.json a link out: never rewritten', async () => {
    const lib = library()
    const out = sentinel()
    fs.symlinkSync(out.dir, path.join(lib, 'codes'))
    const ws = tempDir('sb-ws-')
    dirs.push(ws)
    fs.writeFileSync(path.join(ws, 'calc.py'), 'print(1)\n')
    const r = await cli(['copy-files', '1768600001', 'calc.py', '--workspace', ws, '--library', lib, '--json'])
    expect(r.code).toBe(1)
    expect(fs.readFileSync(path.join(lib, 'skill_1768600001.md'), 'utf8')).toMatch(/^related_code: ''$/m)
    // A SKILL.md library whose index.json is a link out: creating a skill leaves the outside file alone.
    const mdLib = tempDir('sb-mdlib-')
    dirs.push(mdLib)
    fs.symlinkSync(path.join(out.dir, 'notes.md'), path.join(mdLib, 'index.json'))
    const store = await openLibrary(mdLib)
    await store.create({ title: 'pdf-reader', format: 'skill-md', name: 'pdf-reader', body: 'Read PDFs.\n', description: 'Reading PDFs' })
    expect(store.indexJsonProblem).toMatch(/symbolic link/)
    out.unchanged()
  })
})

describe('containment through an MCP server', () => {
  it('query_skill with a linked .skillbench, delete_skill with a linked legacy/, edit_skill proposals with a linked pending/: refused, outside unchanged', async () => {
    const lib = library()
    const out = sentinel()
    fs.mkdirSync(path.join(lib, '.skillbench'))
    fs.symlinkSync(out.dir, path.join(lib, '.skillbench', 'pending'))
    fs.symlinkSync(path.join(out.dir, 'sub'), path.join(lib, 'legacy'))
    const agent = await startMcpAgent(lib, ['--direct-delete'])
    try {
      const del = (await agent.client.callTool({ name: 'delete_skill', arguments: { skill_id: '1768600003' } })) as unknown as { isError: boolean; structuredContent: { message: string } }
      expect(del.isError).toBe(true)
      expect(del.structuredContent.message).toMatch(/legacy: is a symbolic link/)
      const edit = (await agent.client.callTool({ name: 'edit_skill', arguments: { skill_id: '1768600003', edit_mode: 'append', code_edit: 'x' } })) as unknown as { isError: boolean; structuredContent: { message: string } }
      expect(edit.isError).toBe(true)
      expect(edit.structuredContent.message).toMatch(/pending: is a symbolic link/)
      fs.rmSync(path.join(lib, '.skillbench'), { recursive: true })
      fs.symlinkSync(out.dir, path.join(lib, '.skillbench'))
      const q = (await agent.client.callTool({ name: 'query_skill', arguments: { query: 'python calculator' } })) as unknown as { isError: boolean; structuredContent: { message: string } }
      expect(q.isError).toBe(true)
      expect(q.structuredContent.message).toMatch(/\.skillbench: is a symbolic link/)
    } finally {
      await agent.close()
    }
    expect(fs.existsSync(path.join(lib, 'skill_1768600003.md'))).toBe(true)
    out.unchanged()
  })
})

describe('containment through the web API', () => {
  let server: RunningWebServer
  let root: string
  let lib: string
  const out = { dir: '', unchanged: (): void => undefined }
  beforeAll(async () => {
    root = makeRoot([{ dir: 'alice/output_20260101_100000', log: CALC_LOG }])
    dirs.push(root)
    lib = path.join(root, 'alice', 'general', 'experience')
    fs.mkdirSync(lib, { recursive: true })
    const store = await openLibrary(lib)
    for (const s of SKILLS) await store.create({ title: s.title, body: s.body, skill_id: s.id })
    Object.assign(out, sentinel())
    const rendererDir = tempDir('sb-renderer-')
    dirs.push(rendererDir)
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
    server = await startWebServer({ port: 0, rootDir: root, settingsDir: tempDir('sb-settings-'), rendererDir, watch: false })
  })
  afterAll(async () => {
    await server?.close()
  })

  async function api(method: string, input: unknown): Promise<{ status: number; body: { error?: { code: string; message: string } } & Record<string, unknown> }> {
    const res = await fetch(`${server.url}api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skillbench-token': server.token }, body: JSON.stringify(input) })
    return { status: res.status, body: (await res.json()) as never }
  }

  it('skills.delete with a linked legacy/, skills.rate with a linked ledger, memory.write with a linked memory folder: 403 path_escape', async () => {
    const libs = (await api('libraries.list', {})).body as unknown as { path: string }[]
    const id = libs.find((l) => fs.realpathSync(l.path) === fs.realpathSync(lib))!.path
    fs.symlinkSync(out.dir, path.join(lib, 'legacy'))
    let r = await api('skills.delete', { library: id, skillId: '1768600003' })
    expect(r.body.error?.message ?? '').toMatch(/legacy: is a symbolic link/)
    expect(r.status).toBe(403)
    expect(r.body.error).toMatchObject({ code: 'path_escape' })
    fs.unlinkSync(path.join(lib, 'legacy'))
    fs.rmSync(path.join(lib, '.skillbench', 'usage.jsonl'), { force: true })
    fs.symlinkSync(path.join(out.dir, 'journal'), path.join(lib, '.skillbench', 'usage.jsonl'))
    const file = path.join(lib, (await (await openLibrary(lib)).get('1768600003')).path)
    const before = fs.readFileSync(file, 'utf8')
    r = await api('skills.rate', { library: id, skillId: '1768600003', rating: 1 })
    expect(r.body.error).toMatchObject({ code: 'path_escape' })
    expect(r.status).toBe(403)
    expect(fs.readFileSync(file, 'utf8')).toBe(before)
    fs.symlinkSync(out.dir, path.join(root, 'alice', 'memory'))
    r = await api('memory.write', { library: id, name: 'lessons.md', text: '- never\n', baseHash: null })
    expect(r.body.error?.message ?? '').toMatch(/memory: is a symbolic link/)
    expect(r.status).toBe(403)
    expect(r.body.error).toMatchObject({ code: 'path_escape' })
    out.unchanged()
  })

  it('a malformed percent-encoding in an API path is a 400 bad_request, not a 500', async () => {
    const res = await fetch(`${server.url}api/skills.%E0%A4%A`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skillbench-token': server.token }, body: '{}' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_request')
  })
})
