/** Seed 003's detectors, pure: hallucinated tools, critic suggestions, preferences (markers and key-value). */
import { describe, expect, it } from 'vitest'
import { criticSuggestionsIn, hallucinatedToolIn, toolStatsNotes, toolStatsSummary, type ToolStat } from '../../src/main/memory/evolution'
import { englishText } from '../../src/shared/error-codes'
import { messageRefOf } from '../../src/shared/message-match'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { duplicatePreference, preferenceKeyValue, revertBullet, upsertLongTermPreference, upsertPreference } from '../../src/main/memory/preference-kv'
import { extractPreferences } from '../../src/main/memory/preferences'

describe('hallucinated tools', () => {
  it('reads the name from each agent’s message, and nothing from ordinary failures', () => {
    expect(hallucinatedToolIn('<tool_use_error>Error: No such tool available: web_search</tool_use_error>')).toBe('web_search')
    expect(hallucinatedToolIn('unsupported call: browser.open')).toBe('browser.open')
    expect(hallucinatedToolIn('Unknown tool: "fetch_url"')).toBe('fetch_url')
    expect(hallucinatedToolIn("Tool 'grep_all' not found")).toBe('grep_all')
    expect(hallucinatedToolIn('工具不存在：「search」')).toBe('search')
    expect(hallucinatedToolIn('Exit code 1\nnpm ERR! Missing script: "test"')).toBeUndefined()
    expect(hallucinatedToolIn('<tool_use_error>File does not exist.</tool_use_error>')).toBeUndefined()
  })
})

describe('critic suggestions', () => {
  it('finds the seed’s Critic 建议 and its English forms, one per line', () => {
    expect(criticSuggestionsIn('Critic 建议：搜索前先确认域名在白名单内\nok')).toEqual(['搜索前先确认域名在白名单内'])
    expect(criticSuggestionsIn('Critic suggestion: "check the allowlist first"')).toEqual(['check the allowlist first'])
    expect(criticSuggestionsIn('[Critic] correction: pass --json')).toEqual(['pass --json'])
    expect(criticSuggestionsIn('the critics liked the movie')).toEqual([])
  })
})

describe('preferences in sessions', () => {
  it('finds 记住 / 以后都 / 从现在起 / from now on, one per sentence', () => {
    expect(extractPreferences('记住：缩进：2 空格。以后都用中文回答。')).toEqual(['缩进：2 空格', '用中文回答'])
    expect(extractPreferences('从现在起，提交前先跑测试')).toEqual(['提交前先跑测试'])
    expect(extractPreferences('Fix it. From now on, use pnpm instead of npm. Thanks')).toEqual(['use pnpm instead of npm'])
  })
  it('takes "Always …" / "Never …" only from what the user wrote, at a sentence start', () => {
    const text = 'Add tests. Always run the linter first. Never push to main.\nit always fails'
    expect(extractPreferences(text)).toEqual([])
    expect(extractPreferences(text, { userMessage: true })).toEqual(['Always run the linter first', 'Never push to main'])
  })
  it('keeps key-value preferences as key-value', () => {
    expect(preferenceKeyValue('language: zh')).toEqual({ key: 'language', value: 'zh' })
    expect(preferenceKeyValue('缩进：2 空格')).toEqual({ key: '缩进', value: '2 空格' })
    expect(preferenceKeyValue('Always use pnpm: it is faster')).toBeUndefined()
    expect(preferenceKeyValue('see https://example.com')).toBeUndefined()
    // a new value is not a duplicate of the old one, however alike the texts
    expect(duplicatePreference('indent: 4 spaces', ['indent: 2 spaces'])).toBeUndefined()
    expect(duplicatePreference('Indent:  2 spaces', ['indent: 2 spaces'])).toBe('indent: 2 spaces')
    const md = '# Preferences / 用户偏好\n\n- language: en\n- answer briefly\n'
    const up = upsertPreference(md, '# Preferences / 用户偏好', 'Language: zh')
    expect(up).toEqual({ text: '# Preferences / 用户偏好\n\n- Language: zh\n- answer briefly\n', changed: true, replaced: 'language: en' })
    expect(revertBullet(up.text, 'Language: zh', 'language: en').text).toBe(md)
  })
  it('pushes accepted preferences into long-term memory’s own block, leaving the day sections alone', () => {
    const lt = '# Long-term memory / 长期记忆\n\n## 2026-01-02\n\n- did things\n'
    const a = upsertLongTermPreference(lt, '# Long-term memory / 长期记忆', 'language: zh')
    expect(a.text).toBe(`${lt}\n## Preferences / 用户偏好\n\n- language: zh\n`)
    const b = upsertLongTermPreference(a.text, '# Long-term memory / 长期记忆', 'language: en')
    expect(b.text).toBe(`${lt}\n## Preferences / 用户偏好\n\n- language: en\n`)
    expect(upsertLongTermPreference(b.text, '#', 'language: en').changed).toBe(false)
  })
})

describe('tool statistics note', () => {
  it('notes only tools with enough known calls that fail often, most failures first, at most five', () => {
    const tools = [
      { tool: 'Read', calls: 24, known: 24, failed: 8, tasks: 3, topError: 'File does not exist.' },
      { tool: 'Bash', calls: 49, known: 49, failed: 2, tasks: 5 },
      { tool: 'Glob', calls: 4, known: 4, failed: 2, tasks: 1 },
      { tool: 'manager_tool', calls: 30, known: 0, failed: 0, tasks: 2 }
    ]
    expect(toolStatsNotes(tools, 'en')).toEqual(['Read: 8 of 24 calls failed (33%), success rate 67%; most common error: "File does not exist.". Check its arguments and preconditions before calling it.'])
  })

  it('summarises by code for the reason: calls-only tools, the 13th and later as "+N more", the English as before, zh by code', () => {
    const tools: ToolStat[] = Array.from({ length: 14 }, (_, i) => ({ tool: `t${i}`, calls: 20 - i, known: i === 0 ? 0 : 4, failed: i === 1 ? 1 : 0, tasks: 1 }))
    const s = toolStatsSummary(tools, 3)
    const shown = 't0 20 calls; t1 19 calls, 25% errors; ' + Array.from({ length: 10 }, (_, i) => `t${i + 2} ${18 - i} calls, 0% errors`).join('; ')
    expect(s.text).toBe(`3 task(s), 189 tool call(s): ${shown}; +2 more`)
    expect([s.messageCode, s.params.tasks, s.params.calls]).toEqual(['memory.reason_tool_stats', 3, 189])
    expect(englishText(s)).toBe(s.text)
    const zh = translateMessage(s, s.text, 'zh')
    expect(zh.startsWith('3 个任务，189 次工具调用：t0 调用 20 次；t1 调用 19 次，25% 出错；t2 调用 18 次，0% 出错；')).toBe(true)
    expect(zh.endsWith('；t11 调用 9 次，0% 出错；还有 2 个工具')).toBe(true)
    // reached by code only: the words are not read back as this code (its leading {tasks}, its bare items)
    expect(messageRefOf(s.text)?.messageCode).not.toBe('memory.reason_tool_stats')
  })
})
