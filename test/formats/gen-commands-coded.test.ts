/**
 * Why `gen-commands` makes no command of a script is told by code beside its unchanged words (`report.skipped[]`:
 * reason + messageCode + params): a script larger than 1 MB, one it does not know how to run, a second script for
 * one command name, a command the user made in the bin folder, and a skill file that does not load (the loader's
 * code: a real chmod 000 SKILL.md, read as nobody when the tests run as root), and what the walk passed over that might
 * have made commands (a linked SKILL.md or skill folder, a socket named SKILL.md: load.*). Real folders; `--json` carries the same.
 */
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { generateCommands, type SkippedScript } from '../../src/main/formats/commands-gen'
import { runCli, snapshot, tempDir, withoutRoot } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function write(root: string, rel: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true, mode: 0o755 })
  fs.writeFileSync(path.join(root, rel), text)
}

/** A library of three skills (tools: five scripts, four of them passed over; locked: unreadable) and a bin folder with a command the user wrote. */
function libraryAndBin(): { lib: string; bin: string; locked: string } {
  const base = tempDir('gen-commands-coded')
  dirs.push(base)
  fs.chmodSync(base, 0o755)
  const lib = path.join(base, 'lib')
  const bin = path.join(base, 'bin')
  write(lib, 'tools/SKILL.md', '---\nname: tools\ndescription: Tools. Use when tooling.\n---\n\nBody.\n')
  write(lib, 'tools/scripts/a.py', '"""Say a."""\nprint("a")\n')
  write(lib, 'tools/scripts/a.sh', '#!/bin/sh\necho a\n')
  write(lib, 'tools/scripts/notes.txt', 'just words\n')
  write(lib, 'tools/scripts/big.py', Buffer.alloc(1024 * 1024 + 1, 0x23))
  write(lib, 'tools/scripts/mine.py', 'print("mine")\n')
  write(lib, 'locked/SKILL.md', '---\nname: locked\ndescription: Locked. Use when locked.\n---\n\nBody.\n')
  const locked = path.join(lib, 'locked', 'SKILL.md')
  fs.chmodSync(locked, 0o000)
  write(bin, 'skill:tools:mine', '#!/bin/sh\necho the user wrote this\n')
  // nobody writes the commands when the tests run as root (withoutRoot)
  if (process.getuid?.() === 0) for (const p of [bin, path.join(bin, 'skill:tools:mine')]) fs.chownSync(p, 65534, 65534)
  return { lib, bin, locked }
}

describe('gen-commands tells each skipped script by code', () => {
  it('too large, unknown, taken, not ours, not loadable: same words, a code beside, Chinese', async () => {
    const { lib, bin, locked } = libraryAndBin()
    const before = snapshot(lib)
    const report = await withoutRoot(() => generateCommands(lib, bin, 'linux'))
    expect(report.written.map((c) => c.command)).toEqual(['skill:tools:a'])
    const eacces = `EACCES: permission denied, open '${locked}'`
    const expected: Array<[string, string, SkippedScript['messageCode'], Record<string, unknown>, string]> = [
      ['locked/SKILL.md', eacces, 'format.cannot_read', { detail: eacces }, `无法读取：${eacces}`],
      ['tools/scripts/a.sh', 'another script already makes skill:tools:a', 'commands.taken', { command: 'skill:tools:a' }, '已有另一个脚本生成了 skill:tools:a'],
      ['tools/scripts/big.py', 'not a regular file of at most 1 MB', 'commands.not_regular', { mb: 1 }, '不是不超过 1 MB 的普通文件'],
      [
        'tools/scripts/mine.py',
        `skill:tools:mine already exists in ${fs.realpathSync(bin)} and was not made by skillbench: left alone`,
        'commands.not_ours',
        { command: 'skill:tools:mine', bin: fs.realpathSync(bin) },
        `${fs.realpathSync(bin)} 中已有 skill:tools:mine，且不是 skillbench 生成的：保持原样`
      ],
      [
        'tools/scripts/notes.txt',
        'not a script we know how to run (py, sh, bash, zsh, js, mjs, cjs, ts, rb, pl, or a shebang)',
        'commands.unknown_script',
        {},
        '不是我们知道如何运行的脚本（py、sh、bash、zsh、js、mjs、cjs、ts、rb、pl，或带 shebang）'
      ]
    ]
    expect(report.skipped.map((s) => [s.path, s.reason, s.messageCode, s.params])).toEqual(expected.map(([p, r, c, params]) => [p, r, c, params]))
    for (const [i, s] of report.skipped.entries()) {
      expect(englishText(s)).toBe(s.reason)
      expect(translateMessage(s, '', 'zh')).toBe(expected[i]![4])
    }
    // the user's command and the library are as they were
    expect(fs.readFileSync(path.join(bin, 'skill:tools:mine'), 'utf8')).toBe('#!/bin/sh\necho the user wrote this\n')
    expect(snapshot(lib)).toEqual(before)

    // --json carries the same fields; the lines keep their words
    const json = await withoutRoot(() => runCli(['gen-commands', '--library', lib, '--bin', bin, '--json']))
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout).skipped).toEqual(report.skipped)
    const text = await withoutRoot(() => runCli(['gen-commands', '--library', lib, '--bin', bin]))
    expect(text.stdout).toContain('skipped   tools/scripts/a.sh: another script already makes skill:tools:a\n')
  })

  it("a linked SKILL.md, a linked skill folder and a socket named SKILL.md: told by the walk's load.* code; a link among a skill's own files is not", async () => {
    const base = tempDir('gen-commands-links')
    dirs.push(base)
    const lib = path.join(base, 'lib')
    const bin = path.join(base, 'bin')
    const elsewhere = path.join(base, 'elsewhere')
    // a real skill outside the library, with a script: reached only through links, which are never followed
    write(elsewhere, 'far/SKILL.md', '---\nname: far\ndescription: Far. Use when far.\n---\n\nBody.\n')
    write(elsewhere, 'far/scripts/run.py', '"""Run far."""\nprint("far")\n')
    write(lib, 'linked/scripts/run.py', '"""Run linked."""\nprint("linked")\n')
    fs.symlinkSync(path.join(elsewhere, 'far', 'SKILL.md'), path.join(lib, 'linked', 'SKILL.md'))
    fs.symlinkSync(path.join(elsewhere, 'far'), path.join(lib, 'far'))
    write(lib, 'tools/SKILL.md', '---\nname: tools\ndescription: Tools. Use when tooling.\n---\n\nBody.\n')
    write(lib, 'tools/scripts/a.py', '"""Say a."""\nprint("a")\n')
    fs.symlinkSync(path.join(elsewhere, 'far', 'scripts', 'run.py'), path.join(lib, 'tools', 'notes.md'))
    fs.mkdirSync(path.join(lib, 'sock'))
    const socket = net.createServer()
    await new Promise<void>((resolve) => socket.listen(path.join(lib, 'sock', 'SKILL.md'), resolve))
    try {
      const report = await generateCommands(lib, bin, 'linux')
      expect(report.written.map((c) => c.command)).toEqual(['skill:tools:a'])
      expect(report.skipped.map((s) => [s.path, s.reason, s.messageCode, s.params, translateMessage(s, '', 'zh')])).toEqual([
        ['far', 'symbolic link: not followed (links are never read)', 'load.link_not_followed', {}, '符号链接：未跟随（从不读取链接）'],
        ['linked/SKILL.md', 'symbolic link: not followed (links are never read)', 'load.link_not_followed', {}, '符号链接：未跟随（从不读取链接）'],
        ['sock/SKILL.md', 'not a regular file (a socket): skipped', 'load.socket', {}, '不是普通文件（是套接字）：已跳过']
      ])
      for (const s of report.skipped) expect(englishText(s)).toBe(s.reason)
      // --json carries them; the lines say them
      const json = await runCli(['gen-commands', '--library', lib, '--bin', bin, '--json'])
      expect(JSON.parse(json.stdout).skipped).toEqual(report.skipped)
      const text = await runCli(['gen-commands', '--library', lib, '--bin', bin])
      expect(text.stdout).toContain('skipped   linked/SKILL.md: symbolic link: not followed (links are never read)\n')
      expect(text.stdout).toContain('0 written, 1 unchanged, 0 moved aside, 3 skipped')
    } finally {
      await new Promise((resolve) => socket.close(resolve))
    }
    expect(fs.readdirSync(bin).filter((f) => f.startsWith('skill:'))).toEqual(['skill:tools:a'])
  })
})
