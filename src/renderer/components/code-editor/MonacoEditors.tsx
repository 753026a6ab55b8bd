import { useEffect, useRef, useState } from 'react'
import { DiffEditor, Editor } from '@monaco-editor/react'
import { monaco } from './monaco-setup'
import type { CodeEditorProps, DiffViewProps } from './CodeEditor'

function useColorScheme(): 'vs' | 'vs-dark' {
  const query = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null
  const [dark, setDark] = useState(query?.matches ?? false)
  useEffect(() => {
    if (!query) return
    const listener = (e: MediaQueryListEvent): void => setDark(e.matches)
    query.addEventListener('change', listener)
    return () => query.removeEventListener('change', listener)
  }, [query])
  return dark ? 'vs-dark' : 'vs'
}

const OPTIONS = { minimap: { enabled: false }, wordWrap: 'on' as const, fontSize: 13, scrollBeyondLastLine: false, automaticLayout: true, unicodeHighlight: { ambiguousCharacters: false } }

/** Monaco single-file editor. */
export function MonacoCodeEditor(props: CodeEditorProps): React.JSX.Element {
  const theme = useColorScheme()
  const onSave = useRef(props.onSave)
  useEffect(() => {
    onSave.current = props.onSave
  }, [props.onSave])
  return (
    <div className="code-editor" data-testid="code-editor">
      <Editor
        value={props.value}
        language={props.language ?? 'markdown'}
        theme={theme}
        onChange={(v) => props.onChange(v ?? '')}
        options={{ ...OPTIONS, readOnly: props.readOnly, ariaLabel: props.ariaLabel }}
        onMount={(editor) => {
          editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onSave.current?.())
        }}
      />
    </div>
  )
}

/** Monaco DiffEditor, before → after; the right side is editable when onModifiedChange is given. */
export function MonacoDiffView(props: DiffViewProps): React.JSX.Element {
  const theme = useColorScheme()
  const onChange = useRef(props.onModifiedChange)
  useEffect(() => {
    onChange.current = props.onModifiedChange
  }, [props.onModifiedChange])
  return (
    <div className="diff-view" data-testid="diff-view" style={{ height: props.height ?? '420px' }}>
      <DiffEditor
        original={props.original}
        modified={props.modified}
        language={props.language ?? 'markdown'}
        theme={theme}
        options={{ ...OPTIONS, readOnly: !props.onModifiedChange, originalEditable: false, renderSideBySide: true, ariaLabel: props.ariaLabel }}
        onMount={(editor) => {
          const modified = editor.getModifiedEditor()
          modified.onDidChangeModelContent(() => onChange.current?.(modified.getValue()))
        }}
      />
    </div>
  )
}
