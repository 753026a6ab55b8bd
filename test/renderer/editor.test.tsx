// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { stepRating } from '../../src/renderer/components/RatingControl'
import { createFakeApi, FakeLibrary, LIB, libraryHandlers, makeMeta, skillText } from './fake-api'
import type { FakeApi } from './fake-api'
import { renderApp } from './render-app'

vi.mock('../../src/renderer/components/code-editor/CodeEditor', () => import('./code-editor-mock'))

const ID = '1700000001'

function setup(before?: (api: FakeApi) => void) {
  const lib = new FakeLibrary()
  lib.add(makeMeta(1, { quality_index: 0.5, task_directories: ['output_20260101_120000'] }), 'Original body.')
  const api = createFakeApi(libraryHandlers(lib))
  before?.(api)
  renderApp(api, { screen: 'editor', library: LIB, skillId: ID })
  return { lib, api }
}

async function editor(): Promise<HTMLTextAreaElement> {
  return (await screen.findByTestId('code-editor')) as HTMLTextAreaElement
}

describe('Skill editor', () => {
  it('loads the file, marks edits unsaved, and saves with Ctrl+S against the loaded hash', async () => {
    const { api, lib } = setup()
    const box = await editor()
    expect(box.value).toContain('Original body.')
    expect(screen.getByTestId('fm-valid')).toBeTruthy()
    const base = api.callsOf('skills.save').length
    fireEvent.change(box, { target: { value: box.value.replace('Original body.', 'Better body.') } })
    expect(screen.getByTestId('dirty-badge')).toBeTruthy()
    fireEvent.keyDown(window, { key: 's', ctrlKey: true })
    await screen.findByTestId('saved-badge')
    const saves = api.callsOf('skills.save')
    expect(saves).toHaveLength(base + 1)
    expect(saves[0]!.text).toContain('Better body.')
    expect(lib.require(ID).text).toContain('Better body.')
    expect(screen.queryByTestId('dirty-badge')).toBeNull()
  })

  it('Ctrl+S inside the editor saves the editor text exactly once', async () => {
    const { api } = setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: `${box.value}\nTyped fast.` } })
    fireEvent.keyDown(box, { key: 's', ctrlKey: true })
    await screen.findByTestId('saved-badge')
    expect(api.callsOf('skills.save')).toHaveLength(1)
    expect(api.callsOf('skills.save')[0]!.text).toMatch(/Typed fast\.$/)
  })

  it('validates the front matter and refuses to save broken YAML', async () => {
    setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: box.value.replace('quality_index: 0.5', 'quality_index: 7').replace('title: ', 'title: [') } })
    const issues = await screen.findByTestId('fm-issues')
    expect(issues.textContent).toMatch(/^The front matter cannot be read: invalid YAML: /)
    expect((screen.getByTestId('editor-save') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(box, { target: { value: box.value.replace('title: [', 'title: ') } })
    expect((await screen.findByTestId('fm-issues')).textContent).toContain('"quality_index" must be a number from 0 to 1')
  })

  it('a front matter that does not parse: the store\'s coded YAML problem on the line typed, marked there, in English; the rating says it cannot read its fields', async () => {
    setup()
    const box = await editor()
    const line = box.value.split('\n').findIndex((l) => l.startsWith('skill_id:')) + 1
    expect(line).toBe(2)
    // what a newcomer typed after the skill id
    fireEvent.change(box, { target: { value: box.value.replace(/^(skill_id: .*)$/m, '$1: : bad') } })
    const issues = await screen.findByTestId('fm-issues')
    expect(issues.textContent).toBe(`The front matter cannot be read: invalid YAML: a mapping or list is nested on the line of its key (start it on the next line) (at line ${line}, column 11)`)
    expect(issues.textContent).not.toMatch(/Nested mappings|compact/)
    expect(box.getAttribute('data-problems')).toBe(`${line}:11 ${issues.textContent}`)
    // the rating fields were not touched: the panel must not say they were, only that it cannot read them
    const blocked = await screen.findByTestId('rating-blocked')
    expect(blocked.textContent).toBe('The rating fields cannot be read until the front matter in the editor is fixed: fix it (or revert), then rate.')
    expect(blocked.textContent).not.toMatch(/You changed/)
    expect((screen.getByTestId('rating-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('an unclosed quote is said and marked where it opened, as the store says it', async () => {
    setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: box.value.replace(/^title: .*$/m, 'title: "unclosed') } })
    const issues = await screen.findByTestId('fm-issues')
    expect(issues.textContent).toBe('The front matter cannot be read: invalid YAML: a quote opened at line 3, column 8 is not closed before line 4, which is not indented to continue it')
    expect(box.getAttribute('data-problems')).toBe(`3:8 ${issues.textContent}`)
  })

  it('says the YAML problem and the rating\'s reason in Chinese', async () => {
    setup((api) => {
      const base = api.handlers['settings.get']!
      api.handlers['settings.get'] = async (i) => ({ ...(await base(i)), language: 'zh' })
    })
    const box = await editor()
    fireEvent.change(box, { target: { value: box.value.replace(/^(skill_id: .*)$/m, '$1: : bad') } })
    await waitFor(() => expect(screen.getByTestId('fm-issues').textContent).toBe('头信息无法读取：YAML 无效：映射或列表嵌套在它的键所在的行上（请从下一行开始写）（第 2 行第 11 列）'))
    expect(box.getAttribute('data-problems')).toBe(`2:11 ${screen.getByTestId('fm-issues').textContent}`)
    expect(screen.getByTestId('rating-blocked').textContent).toBe('编辑器中的头信息修好之前无法读取评分相关字段：请先修好（或还原），再评分。')
  })

  it('still says "save first" when the rating fields themselves were edited', async () => {
    setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: box.value.replace('quality_index: 0.5', 'quality_index: 0.9') } })
    expect((await screen.findByTestId('rating-blocked')).textContent).toBe('You changed the rating fields in the editor: save (or revert) first, then rate.')
  })

  it('on a conflict shows both versions; "overwrite" saves mine over the disk version', async () => {
    const { api, lib } = setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: box.value.replace('Original body.', 'Mine.') } })
    const disk = skillText(lib.require(ID).meta, 'Changed by someone else.')
    lib.touch(ID, disk)
    fireEvent.click(screen.getByTestId('editor-save'))
    const dialog = await screen.findByTestId('conflict-dialog')
    expect((within(dialog).getByTestId('diff-original') as HTMLTextAreaElement).value).toContain('Changed by someone else.')
    expect((within(dialog).getByTestId('diff-modified') as HTMLTextAreaElement).value).toContain('Mine.')
    fireEvent.click(within(dialog).getByTestId('conflict-overwrite'))
    await screen.findByTestId('saved-badge')
    expect(lib.require(ID).text).toContain('Mine.')
    expect(api.callsOf('skills.save')).toHaveLength(2)
  })

  it('on a conflict, "reload" drops my edits and takes the disk version', async () => {
    const { lib } = setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: box.value.replace('Original body.', 'Mine.') } })
    lib.touch(ID, skillText(lib.require(ID).meta, 'Theirs.'))
    fireEvent.click(screen.getByTestId('editor-save'))
    fireEvent.click(within(await screen.findByTestId('conflict-dialog')).getByTestId('conflict-reload'))
    await waitFor(() => expect((screen.getByTestId('code-editor') as HTMLTextAreaElement).value).toContain('Theirs.'))
    expect(screen.queryByTestId('dirty-badge')).toBeNull()
    expect(screen.queryByTestId('conflict-dialog')).toBeNull()
  })

  it('follows outside changes silently when clean, and warns (without clobbering) when there are edits', async () => {
    const { api, lib } = setup()
    const box = await editor()
    lib.touch(ID, skillText(lib.require(ID).meta, 'Agent rewrote it.'))
    act(() => api.emit({ type: 'files.changed', library: LIB, paths: [`skill_${ID}.md`] }))
    await waitFor(() => expect((screen.getByTestId('code-editor') as HTMLTextAreaElement).value).toContain('Agent rewrote it.'))
    fireEvent.change(box, { target: { value: box.value.replace('Agent rewrote it.', 'My edit.') } })
    lib.touch(ID, skillText(lib.require(ID).meta, 'Agent again.'))
    act(() => api.emit({ type: 'files.changed', library: LIB, paths: [`skill_${ID}.md`] }))
    const banner = await screen.findByTestId('disk-changed')
    expect((screen.getByTestId('code-editor') as HTMLTextAreaElement).value).toContain('My edit.')
    fireEvent.click(within(banner).getByRole('button', { name: 'Compare' }))
    const dialog = await screen.findByTestId('conflict-dialog')
    expect((within(dialog).getByTestId('diff-original') as HTMLTextAreaElement).value).toContain('Agent again.')
  })

  it('guards unsaved changes: leaving asks first; "keep editing" stays, "discard" leaves', async () => {
    setup()
    const box = await editor()
    fireEvent.change(box, { target: { value: `${box.value}\nmore` } })
    fireEvent.click(screen.getByTestId('nav-overview'))
    const dialog = await screen.findByTestId('unsaved-dialog')
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByTestId('unsaved-dialog')).toBeNull()
    expect(screen.getByTestId('screen-editor')).toBeTruthy()
    fireEvent.click(screen.getByTestId('nav-overview'))
    fireEvent.click(within(await screen.findByTestId('unsaved-dialog')).getByTestId('discard-changes'))
    expect(await screen.findByTestId('screen-overview')).toBeTruthy()
  })

  it('leaves without asking when nothing was edited', async () => {
    setup()
    await editor()
    fireEvent.click(screen.getByTestId('nav-skills'))
    expect(await screen.findByTestId('screen-skills')).toBeTruthy()
    expect(screen.queryByTestId('unsaved-dialog')).toBeNull()
  })

  it('rates by keyboard: arrows move the slider, Enter submits, quality before → after is shown', async () => {
    const { api } = setup()
    await editor()
    const slider = screen.getByTestId('rating-slider') as HTMLInputElement
    expect(slider.value).toBe('0.8')
    slider.focus()
    fireEvent.keyDown(slider, { key: 'End' })
    fireEvent.keyDown(slider, { key: 'ArrowLeft' })
    fireEvent.keyDown(slider, { key: 'ArrowLeft' })
    expect(slider.value).toBe('0.9')
    fireEvent.keyDown(slider, { key: 'Enter' })
    await waitFor(() => expect(screen.getByTestId('rating-result').textContent).toBe('Quality 0.500 → 0.620'))
    expect(api.callsOf('skills.rate')).toEqual([{ library: LIB, skillId: ID, rating: 0.9 }])
    await waitFor(() => expect(screen.getByTestId('editor-quality').textContent).toBe('0.62')) // re-read after rating
  })

  it('steps the rating within 0..1', () => {
    expect(stepRating(0.98, 'ArrowRight')).toBe(1)
    expect(stepRating(0.02, 'ArrowDown')).toBe(0)
    expect(stepRating(0.5, 'PageUp')).toBe(0.75)
    expect(stepRating(0.5, 'Home')).toBe(0)
    expect(stepRating(0.5, 'a')).toBeNull()
  })

  it('links the source tasks to the Workspaces screen', async () => {
    const { api } = setup()
    api.handlers['tasks.list'] = async () => ({ root: '/data', skipped: [], tasks: [] })
    await editor()
    fireEvent.click(screen.getByRole('button', { name: 'output_20260101_120000' }))
    expect(await screen.findByTestId('screen-workspaces')).toBeTruthy()
  })

  it('opens a backed-up code file read-only from the related files', async () => {
    const { api } = setup((api) => {
      const get = api.handlers['skills.get']!
      api.handlers['skills.get'] = async (input) => ({ ...(await get(input)), relatedFiles: ['codes/task_1/calc.py', 'codes/task_1/logo.png'] })
      api.handlers['skills.readCode'] = async ({ path }) =>
        path.endsWith('.png')
          ? { path, size: 2048, text: '', truncated: false, binary: true }
          : { path, size: 31, text: 'def add(a, b):\n    return a + b\n', truncated: false, binary: false }
    })
    await editor()
    const links = await screen.findAllByTestId('related-file')
    fireEvent.click(links[0]!)
    const dialog = await screen.findByTestId('code-dialog')
    const code = (await within(dialog).findByTestId('code-editor')) as HTMLTextAreaElement
    expect(code.value).toBe('def add(a, b):\n    return a + b\n')
    expect(code.readOnly).toBe(true)
    expect(within(dialog).getByTestId('code-info').textContent).toContain('read-only')
    expect(api.callsOf('skills.readCode')).toEqual([{ library: LIB, path: 'codes/task_1/calc.py' }])
    fireEvent.keyDown(dialog, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('code-dialog')).toBeNull())
    fireEvent.click(screen.getAllByTestId('related-file')[1]!)
    await waitFor(() => expect(screen.getByTestId('code-dialog').textContent).toContain('binary file'))
  })
})
