/** Words the core sends as names or parser problems read in Chinese on Chinese screens (issue 37). */
import { describe, expect, it } from 'vitest'
import { formatMessage } from '../../src/renderer/i18n/i18n'
import { MESSAGES, type MessageKey } from '../../src/renderer/i18n/messages'
import { translateText } from '../../src/renderer/i18n/messages-errors'
import { authorName } from '../../src/renderer/features/overview/OverviewScreen'
import { targetLabel } from '../../src/renderer/features/deploy/deploy-view'
import { parseSkillText } from '../../src/main/store/skill-file'

const tOf = (lang: 'en' | 'zh') => (key: MessageKey, vars?: Record<string, string | number>): string => formatMessage(MESSAGES[lang][key], vars)
const noLatinWords = (text: string): boolean => !/\b(offline|user|edit|personal|global|fetch|failed|key|must|unique)\b/i.test(text)

describe('fragments on the Chinese screens', () => {
  it('says who proposed a change, also after a person edited it', () => {
    const zh = tOf('zh')
    expect(authorName(zh, 'offline + user edit')).toBe('离线规则，经你修改')
    expect(authorName(tOf('en'), 'offline + user edit')).toBe('the offline rules, edited by you')
    expect(authorName(zh, 'user edit')).toBe('你')
    expect(authorName(zh, 'gpt-4o + user edit')).toBe('gpt-4o，经你修改')
    expect(authorName(zh, 'skillbench deploy')).toBe('Skillbench 部署')
    expect(authorName(zh, 'deployed:claude')).toBe('已部署的副本（claude）')
  })

  it('names the agents’ skills folders on the Deploy screen in the UI language', () => {
    const zh = tOf('zh')
    expect(targetLabel(zh, { spec: 'claude', label: 'Claude Code (personal)' })).toBe('Claude Code（个人）')
    expect(targetLabel(zh, { spec: 'gemini', label: 'Gemini CLI (user)' })).toBe('Gemini CLI（用户级）')
    expect(targetLabel(zh, { spec: 'opencode', label: 'OpenCode (global)' })).toBe('OpenCode（全局）')
    expect(targetLabel(zh, { spec: 'agents:/repo', label: 'Agents folder (/repo)' })).toBe('Agents 文件夹（/repo）')
    expect(targetLabel(tOf('en'), { spec: 'claude', label: 'x' })).toBe('Claude Code (personal)')
    // a folder is its path in every language
    expect(targetLabel(zh, { spec: '/home/u/skills', label: '/home/u/skills' })).toBe('/home/u/skills')
  })

  it('says YAML problems in its own words, translated, instead of the parser’s English', () => {
    const cases: [string, string][] = [
      ['a: 1\na: 2\n', 'YAML 无效：有重复的键（每个键只能出现一次）'],
      ['a: b: c\n', 'YAML 无效：映射或列表嵌套在它的键所在的行上（请从下一行开始写）'],
      ['key\nmore: 1\n', 'YAML 无效：一个键跨了多行'],
      ['a: "x\\q"\n', 'YAML 无效：双引号字符串中有无效的转义'],
      ['\ta: 1\n', 'YAML 无效：用了制表符缩进（请用空格）'],
      ['a: @x\n', 'YAML 无效：值以保留字符开头（请加引号）'],
      ['a: 1\nfoo\n', 'YAML 无效：缺少内容：右引号、右括号或键后面的值']
    ]
    for (const [yaml, zh] of cases) {
      const parsed = parseSkillText(`---\n${yaml}---\nbody\n`)
      expect(parsed.ok, yaml).toBe(false)
      const reason = parsed.ok ? '' : parsed.reason
      // each says where, as a line of the file, after its words
      const at = /\(at line (\d+), column (\d+)\)$/.exec(reason)
      expect(at, reason).not.toBeNull()
      expect(translateText(reason, 'zh'), `${JSON.stringify(yaml)} → ${reason}`).toBe(`${zh}（第 ${at![1]} 行第 ${at![2]} 列）`)
      expect(noLatinWords(translateText(`not saved: ${reason}`, 'zh')), reason).toBe(true)
    }
    // an unclosed quote or bracket says where it opened, in its own words (no "(at line …)" after them)
    const unclosed: [string, string][] = [
      ['title: "open\n', 'YAML 无效：第 2 行第 8 列开始的引号一直没有闭合'],
      ['title: "open\nb: "x"\n', 'YAML 无效：第 2 行第 8 列开始的引号在第 3 行之前没有闭合，而该行的缩进不足以接续它'],
      ['tags: [a\nb: c\n', 'YAML 无效：第 2 行第 7 列开始的 [ 一直没有闭合'],
      ['tags: {a: 1\nb: {}\n', 'YAML 无效：第 2 行第 7 列开始的 { 在第 3 行之前没有闭合，而该行的缩进不足以接续它']
    ]
    for (const [yaml, zh] of unclosed) {
      const parsed = parseSkillText(`---\n${yaml}---\nbody\n`)
      const reason = parsed.ok ? '' : parsed.reason
      expect(translateText(reason, 'zh'), `${JSON.stringify(yaml)} → ${reason}`).toBe(zh)
    }
  })

  it('says a connection failure without the runtime’s English', () => {
    const zh = translateText('cannot reach the model server: fetch failed (bad port) (after 4 attempts)', 'zh')
    expect(zh).toBe('无法连接模型服务器：请求失败（bad port）（已尝试 4 次）')
    expect(noLatinWords(zh)).toBe(true)
  })
})
