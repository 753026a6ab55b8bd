import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { coded, englishText, fillTemplate, isMessageRef, MESSAGE_TEMPLATES, type MessageCode, type MessageParams } from '../../src/shared/error-codes'
import { messageRefOf, readBack } from '../../src/shared/message-match'
import { ERRORS_ZH, translateMessage, translateText } from '../../src/renderer/i18n/messages-errors'

const CODES = Object.keys(MESSAGE_TEMPLATES) as MessageCode[]
const placeholders = (template: string): string[] => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort()

describe('the message table', () => {
  it('gives every code an English and a Chinese template with the same params', () => {
    expect(CODES.length).toBeGreaterThan(100)
    for (const code of CODES) {
      expect(code, 'codes are area.name in lower case').toMatch(/^[a-z]+\.[a-z0-9_]+$/)
      expect(MESSAGE_TEMPLATES[code].trim(), code).not.toBe('')
      const zh = ERRORS_ZH[code]
      expect(zh?.trim(), `${code} has no Chinese`).toBeTruthy()
      expect(placeholders(zh), `${code}: the Chinese names other params than the English`).toEqual(placeholders(MESSAGE_TEMPLATES[code]))
    }
    // the Chinese table has no code the shared one lacks (left over after a rename)
    expect(Object.keys(ERRORS_ZH).filter((c) => !Object.hasOwn(MESSAGE_TEMPLATES, c))).toEqual([])
  })

  it('is counted right in docs/ARCHITECTURE.md (the number went stale twice while codes were added)', () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../docs/ARCHITECTURE.md'), 'utf8')
    // the table's size, wherever it is given ("707 codes"); a small count of some other codes is not it
    const said = [...doc.matchAll(/(\d[\d,]*) codes\b/g)].map((m) => Number(m[1]!.replace(/,/g, ''))).filter((n) => n >= 100)
    expect(said.length, 'ARCHITECTURE.md names the number of codes').toBeGreaterThan(0)
    for (const n of said) expect(n, 'the count in ARCHITECTURE.md').toBe(CODES.length)
  })

  it('reads every rendered English text back as its own code and params (no two templates overlap)', () => {
    let checked = 0
    for (const code of CODES) {
      const names = placeholders(MESSAGE_TEMPLATES[code])
      if (!readBack(code)) continue // only reached by code
      const params: MessageParams = Object.fromEntries(names.map((n, i) => [n, `v${i}-${n}`]))
      const text = englishText({ messageCode: code, params })
      expect(messageRefOf(text), text).toEqual({ messageCode: code, params })
      checked++
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('translates nested reasons, keeps paths and names, and shows an unknown message as it came', () => {
    const yaml = coded('parse.yaml_at', { problem: coded('yaml.duplicate_key'), line: 3, column: 1 })
    const notSaved = coded('skill.not_saved', { reason: yaml })
    expect(notSaved.text).toBe('not saved: invalid YAML: a duplicate key (each key may appear once) (at line 3, column 1)')
    expect(translateMessage(notSaved, notSaved.text, 'zh')).toBe('未保存：YAML 无效：有重复的键（每个键只能出现一次）（第 3 行第 1 列）')
    expect(translateMessage(notSaved, notSaved.text, 'en')).toBe(notSaved.text)
    // the same message arriving as text only is read back through the table
    expect(translateText(notSaved.text, 'zh')).toBe('未保存：YAML 无效：有重复的键（每个键只能出现一次）（第 3 行第 1 列）')
    expect(translateText('folder not found: /home/用户/skills', 'zh')).toBe('找不到文件夹：/home/用户/skills')
    // unknown: as it came, never a crash
    expect(translateMessage({ messageCode: 'from.a_newer_build', params: { x: 1 } }, 'something new', 'zh')).toBe('something new')
    expect(translateMessage({ messageCode: 'path.not_found', params: null }, 'not found: ?', 'zh')).toBe('找不到：{path}')
    expect(translateText('a sentence nobody coded', 'zh')).toBe('a sentence nobody coded')
    expect(isMessageRef({ messageCode: 'path.not_found', params: [] })).toBe(false)
    expect(fillTemplate('{a} and {b}', { a: 'x' })).toBe('x and {b}')
  })
})

describe('words read back through the table', () => {
  it('never takes an unrelated "x (y)" text for a skipped file of copy_skill_files (tool.skipped_file is reached by code only)', () => {
    expect(readBack('tool.skipped_file')).toBe(false)
    for (const text of ['foo (bar)', 'git clone failed (exit 128)', 'not saved (see the log)']) {
      expect(messageRefOf(text), text).toBeNull()
      // shown as it came, not re-punctuated as if it were a coded "{path}（{reason}）"
      expect(translateText(text, 'zh')).toBe(text)
    }
    // a text of a code that is read back still finds its own, with the parenthesis in its words
    expect(messageRefOf('path.txt (not found: /x)')).toBeNull()
    expect(messageRefOf('not found: /home/a (old)')).toEqual({ messageCode: 'path.not_found', params: { path: '/home/a (old)' } })
    // by code it reads as before, its reason in the same language
    const skipped = coded('tool.skipped_file', { path: 'run.sh', reason: coded('path.not_found', { path: '/x/run.sh' }) })
    expect(skipped.text).toBe('run.sh (not found: /x/run.sh)')
    expect(translateMessage(skipped, skipped.text, 'zh')).toBe('run.sh（找不到：/x/run.sh）')
  })
})

/** Every .ts file under a folder. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) ? [p] : []
  })
}

describe('codes in the source', () => {
  const root = path.join(__dirname, '../../src')
  const files = sourceFiles(root).map((f) => ({ rel: path.relative(root, f), text: fs.readFileSync(f, 'utf8') }))

  it('names only codes of the table', () => {
    const used = new Set<string>()
    for (const { rel, text } of files) {
      for (const m of text.matchAll(/\bcoded\(\s*'([^']+)'/g)) {
        expect(Object.hasOwn(MESSAGE_TEMPLATES, m[1]!), `${rel}: coded('${m[1]}') is not in shared/error-codes.ts`).toBe(true)
        used.add(m[1]!)
      }
    }
    expect(used.size).toBeGreaterThan(20)
  })

  it('throws ApiErrors of src/main with a coded message, never a sentence written in place', () => {
    const written: string[] = []
    for (const { rel, text } of files.filter((f) => f.rel.startsWith(`main${path.sep}`))) {
      for (const m of text.matchAll(/(?:new ApiError\(\s*'[a-z_]+',|badRequest\()\s*([`'"])/g)) {
        written.push(`${rel}:${text.slice(0, m.index).split('\n').length}`)
      }
    }
    expect(written).toEqual([])
  })
})
