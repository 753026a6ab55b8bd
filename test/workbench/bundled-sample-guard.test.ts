/**
 * The app never writes into the install's bundled sample data (resources/sample-data), as no CLI command does: the
 * workbench's one gate of the folders it may write into (LibraryRegistry: roots.add, libraries.open, a root for this
 * run) refuses the bundled folder, anything in it and a link to it, with a coded message naming the writable copy in
 * the settings folder; a write then aimed at its library is refused as a library the workbench does not know. The
 * bundled files are unchanged on disk (bytes and mtimes), the settings file does not list them, and the copy opens.
 */
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { DataRootInfo, LibraryInfo } from '../../src/shared/api'
import { benchesDisposedAfterEach, SAMPLE_ROOT, tempDir } from './helpers'
import { AUTO_ENHANCE_FILE } from '../../src/main/workbench/auto-enhance'

const bench = benchesDisposedAfterEach()
const LIBRARY = path.join(SAMPLE_ROOT, 'alice', 'general', 'experience')

/** Every file below `dir`: its bytes (as hex of a hash would do, but the bytes themselves are small) and mtime. */
function snapshot(dir: string): Map<string, { bytes: string; mtimeMs: number }> {
  const out = new Map<string, { bytes: string; mtimeMs: number }>()
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const abs = path.join(dir, rel)
    const st = fs.lstatSync(abs)
    out.set(rel, { bytes: st.isFile() ? fs.readFileSync(abs).toString('base64') : st.isDirectory() ? 'dir' : 'other', mtimeMs: st.mtimeMs })
  }
  return out
}

async function refused(promise: Promise<unknown>, settingsDir: string, copyRel: string): Promise<void> {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e
  )) as { code?: string; message?: string } | undefined
  expect(err, 'refused').toBeTruthy()
  expect(err!.code).toBe('bad_request')
  expect(err!.message).toContain('sample data bundled with Skillbench')
  expect(err!.message).toContain(path.join(settingsDir, 'sample-data', copyRel))
}

describe('the bundled sample data, in the app', () => {
  it('is refused as a data root, as a library, through a link, and no write reaches it: its files unchanged on disk', async () => {
    const before = snapshot(SAMPLE_ROOT)
    const b = await bench()
    await refused(b.call('roots.add', { path: SAMPLE_ROOT }), b.settingsDir, '')
    await refused(b.call('libraries.open', { path: LIBRARY }), b.settingsDir, path.join('alice', 'general', 'experience'))
    await refused(b.call('libraries.open', { path: SAMPLE_ROOT }), b.settingsDir, '')
    const link = path.join(tempDir('link'), 'looks-elsewhere')
    fs.symlinkSync(SAMPLE_ROOT, link)
    await refused(b.call('roots.add', { path: link }), b.settingsDir, '')
    await refused(b.call('settings.update', { patch: { dataRoots: [SAMPLE_ROOT] } }), b.settingsDir, '')
    // nothing of it is listed or remembered
    const roots = await b.call<DataRootInfo[]>('roots.list')
    expect(roots.map((r) => r.path)).toEqual([b.root])
    const libs = await b.call<LibraryInfo[]>('libraries.list')
    expect(libs.some((l) => l.path.startsWith(fs.realpathSync(SAMPLE_ROOT)))).toBe(false)
    const settingsFile = path.join(b.settingsDir, 'settings.json')
    if (fs.existsSync(settingsFile)) expect(fs.readFileSync(settingsFile, 'utf8')).not.toContain(fs.realpathSync(SAMPLE_ROOT))
    // a write aimed at its library is refused before it runs
    const skill = fs.readdirSync(LIBRARY).find((f) => f.startsWith('skill_') && f.endsWith('.md'))!
    const skillId = /skill_(.+)\.md$/.exec(skill)![1]!
    await expect(b.call('skills.rate', { library: LIBRARY, skillId, rating: 1 })).rejects.toMatchObject({ code: 'bad_request' })
    await expect(b.call('skills.delete', { library: LIBRARY, skillId })).rejects.toMatchObject({ code: 'bad_request' })
    await b.wb.dispose()
    expect(snapshot(SAMPLE_ROOT)).toEqual(before)
    const status = execFileSync('git', ['status', '--porcelain', '--', SAMPLE_ROOT], { encoding: 'utf8' })
    expect(status).toBe('')
  })

  it('remembered by an older version: listed read-only with the coded words, none of its libraries, nothing reflects there, nothing lost', async () => {
    // a folder laid out like an install (SKILLBENCH_RESOURCES_DIR), so a regression writes into a copy, not the checkout
    const resources = path.join(tempDir('install'), 'resources')
    fs.cpSync(SAMPLE_ROOT, path.join(resources, 'sample-data'), { recursive: true })
    const real = fs.realpathSync(path.join(resources, 'sample-data'))
    const library = path.join(real, 'alice', 'general', 'experience')
    const before = snapshot(real)
    const settingsDir = tempDir('settings')
    const elsewhere = tempDir('kept')
    // an older version's settings file: the bundled sample as a data root and one of its libraries opened
    const saved = { version: 1, settings: { dataRoots: [real, elsewhere], autoEnhance: true }, openedLibraries: [library] }
    fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify(saved))
    // auto-enhance on since long before the sample's tasks ended: each of them counts as new
    fs.writeFileSync(path.join(settingsDir, AUTO_ENHANCE_FILE), JSON.stringify({ since: '2000-01-01T00:00:00.000Z', processed: [] }))
    const b = await bench({ env: { ...process.env, SKILLBENCH_RESOURCES_DIR: resources } }, undefined, settingsDir)
    const roots = await b.call<DataRootInfo[]>('roots.list')
    const row = roots.find((r) => r.path === real)
    expect(row).toMatchObject({ remembered: true, problem: 'bundled-sample', bundledSample: { copy: path.join(settingsDir, 'sample-data'), sample: real } })
    expect(roots.find((r) => r.path === b.root)?.problem).toBeUndefined()
    const libs = await b.call<LibraryInfo[]>('libraries.list')
    expect(libs.some((l) => l.path.startsWith(real))).toBe(false)
    expect(libs.some((l) => l.root === b.root)).toBe(true)
    // reflection into it is refused with the words that refuse adding it; a skill write as a library it does not know
    const err = await b.call('reflect.start', { root: real }).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string }
    )
    expect(err).toMatchObject({ code: 'bad_request' })
    expect(err!.message).toBe(`${real} is in the sample data bundled with Skillbench, which the app never changes: open its writable copy ${path.join(settingsDir, 'sample-data')} instead (\`npm start\` makes it on a first run, or copy ${real} there)`)
    await expect(b.call('skills.rate', { library, skillId: '1792400000', rating: 1 })).rejects.toMatchObject({ code: 'bad_request' })
    // its tasks are read (auto-enhance is on: nothing is reflected from them)
    const tasks = await b.call<{ tasks: unknown[] }>('tasks.list', { root: real })
    expect(tasks.tasks.length).toBeGreaterThan(0)
    expect(await b.wb.autoEnhanceIdle()).toEqual([])
    // another setting saved: the settings file still holds what it held
    await b.call('settings.update', { patch: { language: 'zh' } })
    const file = JSON.parse(fs.readFileSync(path.join(settingsDir, 'settings.json'), 'utf8')) as { settings: { dataRoots: string[] }; openedLibraries: string[] }
    expect(file.settings.dataRoots).toEqual([real, elsewhere])
    expect(file.openedLibraries).toEqual([library])
    // and the person can forget it
    expect((await b.call<DataRootInfo[]>('roots.remove', { path: real })).map((r) => r.path)).not.toContain(real)
    await b.wb.dispose()
    expect(snapshot(real)).toEqual(before)
  })

  it('its writable copy in the settings folder opens as a root and as a library', async () => {
    const settingsDir = tempDir('settings')
    const b = await bench({}, undefined, settingsDir)
    const copy = path.join(settingsDir, 'sample-data')
    fs.cpSync(SAMPLE_ROOT, copy, { recursive: true })
    const roots = await b.call<DataRootInfo[]>('roots.add', { path: copy })
    expect(roots.map((r) => r.path)).toContain(fs.realpathSync(copy))
    const libs = await b.call<LibraryInfo[]>('libraries.open', { path: path.join(copy, 'alice', 'general', 'experience') })
    expect(libs.some((l) => l.path === fs.realpathSync(path.join(copy, 'alice', 'general', 'experience')) && l.sample)).toBe(true)
  })
})
