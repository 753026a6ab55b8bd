// @vitest-environment jsdom
/**
 * The screen for fixing a skill file that does not load: the red notice says where the problem is once. A message
 * that already names its line and column (`parse.yaml_at`: "… (at line 3, column 8)") gets no "· line 3, column 8"
 * after it, in English and Chinese; one that does not still gets it. And the Skills screen names the values a file
 * was loaded with by default (`load_warnings`), as `skillbench validate` and `list` do.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { coded, refOf } from '../../src/shared/error-codes'
import { codedReason } from '../../src/shared/coded-reason'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

afterEach(() => window.localStorage.removeItem('skillbench.lang'))

/** The app in Chinese: the language the settings hold (renderApp starts in English). */
function inChinese(api: FakeApi): void {
  const settings = api.handlers['settings.get']!
  api.handlers['settings.get'] = async (input) => ({ ...(await settings(input)), language: 'zh' })
}

const BROKEN = '---\nskill_id: "9"\ntitle: [oops\nquality_index: 0.5\n---\nBody\n'

function fileScreen(problem: { reason: string; line: number; column: number; messageCode?: string; params?: unknown }): FakeApi {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1), 'Body.')
  const api = createFakeApi(libraryHandlers(lib))
  api.handlers['skills.readFile'] = async ({ path }) => ({ path, text: BROKEN, hash: 'h1', problem: problem as never })
  return api
}

const count = (text: string, part: string): number => text.split(part).length - 1

describe('the unreadable file notice', () => {
  const yamlAt = coded('parse.yaml_at', { problem: refOf(coded('yaml.missing_char')), line: 3, column: 8 })
  const problem = { ...codedReason(yamlAt), line: 3, column: 8 }

  it('shows the position once when the message names it (English)', async () => {
    renderApp(fileScreen(problem), { screen: 'file', library: LIB, path: 'skill_broken.md' })
    const notice = await screen.findByTestId('file-problem')
    expect(notice.textContent).toContain('(at line 3, column 8)')
    expect(count(notice.textContent!, 'line 3, column 8')).toBe(1)
    expect(notice.textContent).not.toContain('·')
  })

  it('shows the position once when the message names it (Chinese)', async () => {
    const api = fileScreen(problem)
    inChinese(api)
    renderApp(api, { screen: 'file', library: LIB, path: 'skill_broken.md' })
    const notice = await screen.findByTestId('file-problem')
    await waitFor(() => expect(notice.textContent).toContain('（第 3 行第 8 列）'))
    expect(count(notice.textContent!, '第 3 行')).toBe(1)
    expect(notice.textContent).not.toContain('·')
  })

  it('a nested problem that names the same position ("a [ opened at line 4, column 16 is never closed"): once too', async () => {
    const bracket = coded('parse.yaml', { problem: refOf(coded('yaml.unclosed_bracket', { bracket: '[', line: 4, column: 16 })) })
    renderApp(fileScreen({ ...codedReason(bracket), line: 4, column: 16 }), { screen: 'file', library: LIB, path: 'skill_broken.md' })
    const notice = await screen.findByTestId('file-problem')
    expect(notice.textContent).toContain('a [ opened at line 4, column 16 is never closed')
    expect(count(notice.textContent!, 'line 4, column 16')).toBe(1)
  })

  it('a nested position that is another place (where a quote opened) keeps the problem\'s own after it', async () => {
    const quote = coded('parse.yaml', { problem: refOf(coded('yaml.unclosed_quote_before', { line: 2, column: 8, end: 5 })) })
    renderApp(fileScreen({ ...codedReason(quote), line: 5, column: 1 }), { screen: 'file', library: LIB, path: 'skill_broken.md' })
    const notice = await screen.findByTestId('file-problem')
    expect(notice.textContent).toContain(' · line 5, column 1')
  })

  it('still adds the position to a message that does not name it', async () => {
    renderApp(fileScreen({ reason: 'invalid YAML: Unexpected end', line: 3, column: 8 }), { screen: 'file', library: LIB, path: 'skill_broken.md' })
    const notice = await screen.findByTestId('file-problem')
    expect(notice.textContent).toContain('invalid YAML: Unexpected end · line 3, column 8')
  })
})

describe('values read with a default on the Skills screen', () => {
  it('names each one under the list, in the UI language, linking to the skill', async () => {
    const lib = new FakeLibrary()
    lib.add(makeMeta(1, { title: 'Clean' }))
    const sloppy = lib.add(makeMeta(2, { title: 'Sloppy' }))
    const api = createFakeApi(libraryHandlers(lib))
    const warning = codedReason(coded('field.quality_range', { field: 'quality_index', value: '"high"', used: '0.5' }))
    const list = api.handlers['skills.list']!
    api.handlers['skills.list'] = async (input) => {
      const out = await list(input)
      return { ...out, skills: out.skills.map((s) => (s.skill_id === sloppy.meta.skill_id ? { ...s, load_warnings: [warning] } : s)) }
    }
    inChinese(api)
    renderApp(api, { screen: 'skills' })
    const box = await screen.findByTestId('load-warnings')
    await waitFor(() => expect(box.textContent).toContain('1 个技能的部分字段按默认值读取'))
    expect(box.textContent).toContain('quality_index 必须是 0 到 1 之间的数字，收到的是 "high"；按 0.5 读取')
    fireEvent.click(within(box).getByTestId('load-warning-open'))
    expect(await screen.findByTestId('screen-editor')).toBeTruthy()
  })
})
