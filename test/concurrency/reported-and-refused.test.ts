/**
 * Smaller defects found by a hostile tester: what a list or a scan passes over is reported with a reason; two
 * active files with one skill_id are reported and changes by that id refused; leftover temp files in the
 * bookkeeping folders are swept at open; related_code lists a copied file once.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { scanSessions } from '../../src/main/scan/sessions'
import { scanRoot } from '../../src/main/scan/scan-root'
import { makeLibrary, skillFileText } from '../curate/fixtures'
import { CALC_LOG, makeRoot } from '../reflect/make-root'
import { hashTree, tempDir } from '../store/helpers'
import { cli } from './agents'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const mkfifo = (p: string): void => void spawnSync('mkfifo', [p])
const haveMkfifo = spawnSync('mkfifo', ['--version']).status === 0

const SKILLS = [
  { id: '1768600001', title: 'Python calculator', body: 'Write calc.py.\n' },
  { id: '1768600003', title: 'Resolve git merge conflicts', body: 'Run git status.\n' }
]

describe('a listing reports every entry it passes over', () => {
  it.runIf(haveMkfifo)('a FIFO named like a skill, a folder named like a skill file, linked files and a scripts/ link to a system folder', async () => {
    const dir = makeLibrary(SKILLS)
    dirs.push(dir)
    mkfifo(path.join(dir, 'skill_fifo.md'))
    fs.mkdirSync(path.join(dir, 'skill_folder.md'))
    fs.mkdirSync(path.join(dir, 'pdf-tool'))
    fs.writeFileSync(path.join(dir, 'pdf-tool', 'SKILL.md'), '---\nname: pdf-tool\ndescription: Read PDFs\n---\nUse pdftotext.\n')
    fs.symlinkSync('/usr/bin', path.join(dir, 'pdf-tool', 'scripts'))
    fs.symlinkSync(path.join(dir, 'skill_1768600001.md'), path.join(dir, 'skill_linked.md'))
    const lib = await openLibrary(dir)
    const { skills, errors } = await lib.list()
    expect(skills.map((s) => s.title).sort()).toEqual(['Python calculator', 'Resolve git merge conflicts', 'pdf-tool'])
    const reasons = Object.fromEntries(errors.map((e) => [e.path, `${e.kind}: ${e.reason}`]))
    expect(reasons['skill_fifo.md']).toMatch(/^skipped: not a regular file \(a FIFO\)/)
    expect(reasons['skill_folder.md']).toMatch(/^skipped: a folder named like a skill file/)
    expect(reasons['pdf-tool/scripts']).toMatch(/^skipped: symbolic link/)
    expect(reasons['skill_linked.md']).toMatch(/^skipped: symbolic link/)
    // The same through the CLI (machine output), and the listing left the folder as it was.
    const before = hashTree(dir)
    const r = await cli(['list', '--library', dir, '--json'])
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.stdout) as { errors: { path: string; kind: string }[] }
    expect(listed.errors.map((e) => e.path).sort()).toEqual(['pdf-tool/scripts', 'skill_fifo.md', 'skill_folder.md', 'skill_linked.md'])
    expect(hashTree(dir)).toEqual(before)
  })

  it.runIf(haveMkfifo)('a scan reports a session that is one giant line, FIFOs among sessions, task names on FIFOs and FIFO logs', async () => {
    const claude = tempDir('sb-claude-')
    dirs.push(claude)
    const project = path.join(claude, '-work-demo')
    fs.mkdirSync(project)
    // One record on one line longer than the 32 MB a line may hold (a whole session pasted into one line).
    const huge = path.join(project, 'giant.jsonl')
    const fd = fs.openSync(huge, 'w')
    fs.writeSync(fd, '{"type":"user","message":{"role":"user","content":"')
    const block = Buffer.alloc(1024 * 1024, 0x61)
    for (let i = 0; i < 33; i++) fs.writeSync(fd, block)
    fs.writeSync(fd, '"}}\n')
    fs.closeSync(fd)
    mkfifo(path.join(project, 'pipe.jsonl'))
    const sessions = await scanSessions({ source: 'claude', dir: claude })
    const why = Object.fromEntries(sessions.skipped.map((s) => [path.basename(s.path), s.reason]))
    expect(why['giant.jsonl']).toMatch(/^1 line\(s\) longer than 32 MB skipped \(the longest 33 MB/)
    expect(why['pipe.jsonl']).toMatch(/^not a regular file \(a FIFO\)/)

    const root = makeRoot([{ dir: 'alice/output_20260101_100000', log: CALC_LOG }])
    dirs.push(root)
    mkfifo(path.join(root, 'alice', 'output_20260102_100000'))
    fs.mkdirSync(path.join(root, 'alice', 'output_20260103_100000', 'logs'), { recursive: true })
    mkfifo(path.join(root, 'alice', 'output_20260103_100000', 'logs', 'manager.out'))
    const scan = await scanRoot({ rootDir: root })
    const skipped = Object.fromEntries(scan.skipped.map((s) => [path.relative(root, s.path), s.reason]))
    expect(skipped['alice/output_20260102_100000']).toMatch(/not a folder \(a FIFO\)/)
    expect(skipped['alice/output_20260103_100000/logs/manager.out']).toMatch(/not a file/)
    expect(scan.tasks.map((t) => t.taskDir)).toEqual(['output_20260101_100000'])
  })
})

describe('two active skill files with one skill_id', () => {
  it('are reported by list and validate, and rate, edit and delete refuse the ambiguous id, changing nothing', async () => {
    const dir = makeLibrary(SKILLS)
    dirs.push(dir)
    fs.writeFileSync(path.join(dir, 'skill_copy.md'), skillFileText({ id: '1768600003', title: 'Resolve git conflicts (copy)', body: 'A copy.\n' }))
    const r = await cli(['list', '--library', dir, '--json'])
    const dup = (JSON.parse(r.stdout) as { errors: { path: string; kind: string; reason: string }[] }).errors.filter((e) => e.kind === 'duplicate_id')
    expect(dup.map((e) => e.path).sort()).toEqual(['skill_1768600003.md', 'skill_copy.md'])
    expect(dup[0]!.reason).toMatch(/^duplicate skill_id 1768600003: also used by /)
    const v = await cli(['validate', dir, '--json'])
    expect(v.code).toBe(1)
    const files = (JSON.parse(v.stdout) as { files: { path: string; problems: { message: string }[] }[] }).files
    expect(files.find((f) => f.path === 'skill_copy.md')!.problems.map((p) => p.message).join()).toMatch(/duplicate skill_id 1768600003: also used by skill_1768600003\.md/)
    const before = hashTree(dir)
    for (const args of [['rate', '1768600003', '1'], ['edit', '1768600003', '--mode', 'append', '--text', 'x'], ['delete', '1768600003']]) {
      const res = await cli([...args, '--library', dir])
      expect(res.code).toBe(1)
      expect(res.stderr).toMatch(/skill id 1768600003 is used by 2 files \(skill_1768600003\.md, skill_copy\.md\): give one of them a new skill_id first; nothing was changed/)
    }
    expect(hashTree(dir)).toEqual(before)
    // The other skills stay usable.
    expect((await cli(['rate', '1768600001', '1', '--library', dir])).code).toBe(0)
  })
})

describe('leftovers and repeats', () => {
  it('temp files of dead writers in .skillbench/ and .skillbench/tx/ are swept at open; a live writer\'s are kept', async () => {
    const dir = fs.realpathSync(makeLibrary(SKILLS))
    dirs.push(dir)
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    fs.mkdirSync(path.join(dir, '.skillbench', 'tx'), { recursive: true })
    fs.mkdirSync(path.join(dir, '.skillbench', 'pending'), { recursive: true })
    const gone = [`.skillbench/.skillbench-tmp-${dead}-aa11.tmp`, `.skillbench/tx/.skillbench-tmp-${dead}-bb22.tmp`, `.skillbench/pending/.skillbench-tmp-${dead}-cc33.tmp`]
    const live = `.skillbench/.skillbench-tmp-${process.ppid}-dd44.tmp`
    for (const f of [...gone, live]) fs.writeFileSync(path.join(dir, f), 'half written')
    const lib = await openLibrary(dir)
    expect(lib.sweptTempFiles).toBe(3)
    for (const f of gone) expect(fs.existsSync(path.join(dir, f))).toBe(false)
    expect(fs.existsSync(path.join(dir, live))).toBe(true)
  })

  it('related_code lists a file once however often it is copied (twice in one call, again in another call)', async () => {
    const dir = makeLibrary(SKILLS)
    dirs.push(dir)
    const ws = tempDir('sb-ws-')
    dirs.push(ws)
    fs.writeFileSync(path.join(ws, 'calc.py'), 'print(1)\n')
    fs.writeFileSync(path.join(ws, 'test_calc.py'), 'assert True\n')
    expect((await cli(['copy-files', '1768600001', 'calc.py', 'calc.py', '--workspace', ws, '--library', dir])).code).toBe(0)
    expect((await cli(['copy-files', '1768600001', 'calc.py', 'test_calc.py', '--workspace', ws, '--library', dir])).code).toBe(0)
    const skill = await (await openLibrary(dir)).get('1768600001')
    expect(skill.related_code).toBe('codes/task_1768600001/calc.py, codes/task_1768600001/test_calc.py')
  })
})
