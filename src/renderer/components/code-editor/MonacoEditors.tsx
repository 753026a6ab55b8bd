import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { DiffEditor, Editor } from '@monaco-editor/react'
import { monaco } from './monaco-setup'
import type { CodeEditorProps, DiffViewProps } from './editor-props'
import { useTabFocus } from './tab-focus'
import { TabFocusStatus } from './TabFocusStatus'
import { showHiddenText, type HiddenTextLabels } from './hidden-text-decorations'
import { useT } from '../../i18n/i18n'

/** The hover labels of hidden text, in the app's language. */
function useHiddenTextLabels(): HiddenTextLabels {
  const t = useT()
  return { tag: t('audit.hidden.tag'), 'zero-width': t('audit.hidden.zeroWidth'), bidi: t('audit.hidden.bidi') }
}

/**
 * Monaco's own light and dark themes, with line numbers and other dimmed text dark (or light) enough to read:
 * the stock grey line numbers are 1.75:1 against the page, far under WCAG's 4.5:1.
 */
let themesDefined = false
function defineThemes(): void {
  if (themesDefined) return
  themesDefined = true
  monaco.editor.defineTheme('skillbench-light', {
    base: 'vs',
    inherit: true,
    rules: [],
    // the dimmed number of the line after a final newline too (most skill files end with one)
    colors: { 'editorLineNumber.foreground': '#5c6470', 'editorLineNumber.activeForeground': '#1d2330', 'editorLineNumber.dimmedForeground': '#5c6470', 'editorWhitespace.foreground': '#8a919c' }
  })
  monaco.editor.defineTheme('skillbench-dark', {
    base: 'vs-dark',
    inherit: true,
    rules: [],
    colors: { 'editorLineNumber.foreground': '#a3abb8', 'editorLineNumber.activeForeground': '#e3e7ef', 'editorLineNumber.dimmedForeground': '#a3abb8' }
  })
}

function useColorScheme(): 'skillbench-light' | 'skillbench-dark' {
  const query = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null
  const [dark, setDark] = useState(query?.matches ?? false)
  useEffect(() => {
    if (!query) return
    const listener = (e: MediaQueryListEvent): void => setDark(e.matches)
    query.addEventListener('change', listener)
    return () => query.removeEventListener('change', listener)
  }, [query])
  defineThemes()
  return dark ? 'skillbench-dark' : 'skillbench-light'
}

const OPTIONS = { minimap: { enabled: false }, wordWrap: 'on' as const, fontSize: 13, scrollBeyondLastLine: false, automaticLayout: true, unicodeHighlight: { ambiguousCharacters: false } }

/**
 * Monaco single-file editor. Uncontrolled on purpose: the model is the source of truth while typing
 * (feeding every keystroke back through `value` races with the next keystroke and drops characters);
 * `value` is pushed into the model only when it changes from outside (reload, revert).
 */
export function MonacoCodeEditor(props: CodeEditorProps): React.JSX.Element {
  const theme = useColorScheme()
  const onSave = useRef(props.onSave)
  const onChange = useRef(props.onChange)
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null)
  const latest = useRef(props.value)
  /** Values we reported and whose echo (as `value`) has not come back yet, oldest first. */
  const pending = useRef<string[]>([])
  const applying = useRef(false)
  const autoFocus = useRef(props.autoFocus)
  const [mounted, setMounted] = useState<monaco.editor.IStandaloneCodeEditor | null>(null)
  const tabFocus = useTabFocus(mounted)
  // hidden characters (zero-width, Unicode tags, bidi controls) shown as ⟦…⟧: what the agent reads, made visible
  const hiddenLabels = useHiddenTextLabels()
  useEffect(() => (mounted ? showHiddenText(mounted, hiddenLabels) : undefined), [mounted, hiddenLabels.tag, hiddenLabels['zero-width'], hiddenLabels.bidi]) // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    onSave.current = props.onSave
    onChange.current = props.onChange
  }, [props.onSave, props.onChange])
  // problems as markers (squiggles with their message on hover and in the keyboard-reachable hover)
  const { problems } = props
  useEffect(() => {
    const model = mounted?.getModel()
    if (!mounted || !model) return
    const markers = (problems ?? []).map((p) => {
      const line = Math.min(Math.max(1, p.line), model.getLineCount())
      const column = Math.min(Math.max(1, p.column), model.getLineMaxColumn(line))
      return { severity: monaco.MarkerSeverity.Error, message: p.message, startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: Math.max(column + 1, model.getLineMaxColumn(line)) }
    })
    monaco.editor.setModelMarkers(model, 'skillbench', markers)
    const first = markers[0]
    if (first) mounted.revealLineInCenterIfOutsideViewport(first.startLineNumber)
  }, [mounted, problems])
  useEffect(() => {
    latest.current = props.value
    const echo = pending.current.indexOf(props.value)
    if (echo >= 0) {
      pending.current.splice(0, echo + 1)
      return
    }
    const editor = editorRef.current
    if (editor && editor.getValue() !== props.value) {
      pending.current = []
      applying.current = true
      editor.setValue(props.value)
      applying.current = false
    }
  }, [props.value])
  return (
    <div className="code-editor" data-testid="code-editor">
      <div className="code-editor-body">
      <Editor
        defaultValue={props.value}
        language={props.language ?? 'markdown'}
        theme={theme}
        options={{ ...OPTIONS, readOnly: props.readOnly, ariaLabel: props.ariaLabel }}
        onMount={(editor) => {
          editorRef.current = editor
          setMounted(editor)
          if (editor.getValue() !== latest.current) editor.setValue(latest.current)
          if (autoFocus.current) editor.focus()
          editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onSave.current?.(editor.getValue()))
          editor.onDidChangeModelContent(() => {
            if (applying.current) return
            const value = editor.getValue()
            pending.current.push(value)
            if (pending.current.length > 500) pending.current.shift() // a parent that never echoes must not grow this
            onChange.current(value)
          })
        }}
      />
      </div>
      <TabFocusStatus on={tabFocus.on} onToggle={tabFocus.toggle} />
    </div>
  )
}

/**
 * Gives a diff side its screen-reader name and keeps it: Monaco 0.57's diff editor re-applies its sub-editors'
 * options with an empty `ariaLabel` right after creating them (and on later option changes), leaving the inputs
 * unnamed (axe: aria-input-field-name).
 */
function keepAriaLabel(editor: monaco.editor.ICodeEditor, label: string): void {
  const apply = (): void => {
    if (editor.getOption(monaco.editor.EditorOption.ariaLabel) !== label) editor.updateOptions({ ariaLabel: label })
  }
  apply()
  editor.onDidChangeConfiguration((e) => {
    if (e.hasChanged(monaco.editor.EditorOption.ariaLabel)) apply()
  })
}

/**
 * Monaco DiffEditor, before → after; the right side is editable when onModifiedChange is given.
 * Teardown is ours: @monaco-editor/react 4.7 disposes the two models before the widget, which Monaco
 * 0.52+ reports as "TextModel got disposed before DiffEditorWidget model got reset". So the wrapper
 * keeps the models, and a layout-effect cleanup (runs before the wrapper's own) detaches and frees them.
 */
export function MonacoDiffView(props: DiffViewProps): React.JSX.Element {
  const theme = useColorScheme()
  const onChange = useRef(props.onModifiedChange)
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null)
  // The right side is the user's once mounted: feeding edits back as a prop would race with typing.
  const [initialModified] = useState(props.modified)
  const labels = useRef({ original: props.originalLabel, modified: props.modifiedLabel })
  const hiddenLabels = useRef(useHiddenTextLabels())
  const hiddenOff = useRef<(() => void)[]>([])
  useEffect(() => {
    onChange.current = props.onModifiedChange
  }, [props.onModifiedChange])
  useLayoutEffect(
    () => () => {
      const editor = editorRef.current
      editorRef.current = null
      for (const off of hiddenOff.current.splice(0)) off()
      if (!editor) return
      const model = editor.getModel()
      editor.setModel(null)
      model?.original.dispose()
      model?.modified.dispose()
    },
    []
  )
  return (
    <div className="diff-view" data-testid="diff-view" style={{ height: props.height ?? '420px' }}>
      <DiffEditor
        original={props.original}
        modified={initialModified}
        language={props.language ?? 'markdown'}
        theme={theme}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        options={{
          ...OPTIONS,
          readOnly: !props.onModifiedChange,
          originalEditable: false,
          // Always two sides, both wrapped (a reviewer compares the BEFORE text with the AFTER text). Monaco 0.57
          // shows one inline side while the editor is under 900 px wide, turning the hidden BEFORE side's wrapping
          // off (`wordWrapOverride2: 'off'`) and never back on when the two sides return (monaco-editor#5353): the
          // BEFORE side then cut long lines at its edge, in a 900 px window and, once the dialog had opened, a wide one.
          renderSideBySide: true,
          useInlineViewWhenSpaceIsLimited: false,
          diffWordWrap: 'on',
          ariaLabel: props.ariaLabel,
          // each side's input needs its own name (axe: aria-input-field-name)
          originalAriaLabel: props.originalLabel,
          modifiedAriaLabel: props.modifiedLabel
        }}
        onMount={(editor) => {
          editorRef.current = editor
          keepAriaLabel(editor.getOriginalEditor(), labels.current.original)
          keepAriaLabel(editor.getModifiedEditor(), labels.current.modified)
          const modified = editor.getModifiedEditor()
          modified.onDidChangeModelContent(() => onChange.current?.(modified.getValue()))
          hiddenOff.current.push(showHiddenText(editor.getOriginalEditor(), hiddenLabels.current), showHiddenText(modified, hiddenLabels.current))
        }}
      />
    </div>
  )
}
