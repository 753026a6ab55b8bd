/** An existing index.json kept current after SKILL.md changes (index-json-sync.ts), on real folders. */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { syncIndexJsonIfPresent } from '../../src/main/store/index-json-sync'
import { tempDir } from './helpers'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'

const dirs: string[] = []
function dir(prefix: string): string {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function put(root: string, rel: string, text = 'x'): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
  fs.writeFileSync(path.join(root, rel), text)
}

describe('syncIndexJsonIfPresent', () => {
  const skill = (root: string, name: string): void => put(root, `${name}/SKILL.md`, `---\nname: ${name}\ndescription: Use when ${name}.\n---\n# ${name}\n`)

  it('creates nothing unasked, updates an index.json of ours, and leaves a foreign one as it is (saying why)', async () => {
    const root = dir('sb-index-')
    skill(root, 'first-skill')
    expect(await syncIndexJsonIfPresent(root)).toBeNull()
    expect(fs.existsSync(path.join(root, 'index.json'))).toBe(false)

    put(root, 'index.json', '{"skills": []}\n')
    expect(await syncIndexJsonIfPresent(root)).toEqual({ problem: undefined })
    const paths = (): string[] => (JSON.parse(fs.readFileSync(path.join(root, 'index.json'), 'utf8')) as { skills: { path: string }[] }).skills.map((s) => s.path)
    expect(paths()).toEqual(['first-skill'])
    skill(root, 'second-skill')
    expect(await syncIndexJsonIfPresent(root)).toEqual({ problem: undefined })
    expect(paths()).toEqual(['first-skill', 'second-skill'])

    put(root, 'index.json', '{"mine": true}\n')
    expect(await syncIndexJsonIfPresent(root)).toEqual({
      problem: 'index.json exists and was not written by skillbench: left as it is',
      problemRef: { messageCode: 'index.not_ours', params: { file: 'index.json' } }
    })
    expect(fs.readFileSync(path.join(root, 'index.json'), 'utf8')).toBe('{"mine": true}\n')
  })

  it('an index.json that is a link: told, not followed', async () => {
    const root = dir('sb-index-')
    const outside = dir('sb-index-outside-')
    skill(root, 'first-skill')
    put(outside, 'index.json', '{"skills": []}\n')
    fs.symlinkSync(path.join(outside, 'index.json'), path.join(root, 'index.json'))
    const r = await syncIndexJsonIfPresent(root)
    // told as the write it stops: never written through (it said "never read through")
    const link = path.join(fs.realpathSync(root), 'index.json')
    expect(r?.problem).toBe(`index.json could not be updated: ${link}: is a symbolic link (never written through); nothing was written outside the library`)
    // by code, the store's reason nested with its own code; the same English, and Chinese by code
    expect(r?.problemRef).toMatchObject({
      messageCode: 'index.not_updated',
      params: { reason: { messageCode: 'file.escape', params: { path: link, why: { messageCode: 'file.why_symlink_write', params: {} } } } }
    })
    expect(translateMessage(r!.problemRef, '', 'en')).toBe(r!.problem)
    expect(translateMessage(r!.problemRef, '', 'zh')).toBe(`无法更新 index.json：${link}：是符号链接（从不通过它写入）；没有在技能库之外写入任何内容`)
    expect(fs.readFileSync(path.join(outside, 'index.json'), 'utf8')).toBe('{"skills": []}\n')
  })
})
