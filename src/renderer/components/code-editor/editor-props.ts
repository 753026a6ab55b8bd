/** The editors' props, apart from CodeEditor.tsx so the lazily loaded Monaco module can take them without a circle. */
export interface CodeEditorProps {
  value: string
  onChange: (value: string) => void
  language?: string
  ariaLabel: string
  /** Called on Ctrl/Cmd+S while the editor has focus, with the editor's text at that moment. */
  onSave?: (value: string) => void
  readOnly?: boolean
  /** Take the keyboard focus once the editor is ready (opened from a list with Enter). */
  autoFocus?: boolean
  /** Problems to mark in the text (1-based line and column), e.g. a YAML error; the first is scrolled into view. */
  problems?: EditorProblem[]
}

export interface EditorProblem {
  line: number
  column: number
  message: string
}

export interface DiffViewProps {
  original: string
  /** The right side's initial text (remount with a new `key` to replace it). */
  modified: string
  /** When given, the right side is editable and reports every change. */
  onModifiedChange?: (value: string) => void
  language?: string
  ariaLabel: string
  /** Names of the two sides for screen readers, in the app's language (required: a default here would be English). */
  originalLabel: string
  modifiedLabel: string
  height?: string
}
