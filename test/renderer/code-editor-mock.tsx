/** Stand-ins for the Monaco components in jsdom: plain textareas with the same props. */
import type { CodeEditorProps, DiffViewProps } from '../../src/renderer/components/code-editor/CodeEditor'

export function CodeEditor(props: CodeEditorProps): React.JSX.Element {
  return (
    <textarea
      aria-label={props.ariaLabel}
      data-testid="code-editor"
      data-problems={(props.problems ?? []).map((p) => `${p.line}:${p.column} ${p.message}`).join('\n')}
      autoFocus={props.autoFocus}
      value={props.value}
      readOnly={props.readOnly}
      onChange={(e) => props.onChange(e.target.value)}
      onKeyDown={(e) => {
        // like Monaco's Ctrl/Cmd+S command: handled here, with the editor's own text
        if ((e.ctrlKey || e.metaKey) && e.key === 's' && props.onSave) {
          e.preventDefault()
          props.onSave(e.currentTarget.value)
        }
      }}
    />
  )
}

export function DiffView(props: DiffViewProps): React.JSX.Element {
  return (
    <div data-testid="diff-view">
      <textarea data-testid="diff-original" readOnly value={props.original} />
      <textarea data-testid="diff-modified" readOnly={!props.onModifiedChange} defaultValue={props.modified} onChange={(e) => props.onModifiedChange?.(e.target.value)} />
    </div>
  )
}
