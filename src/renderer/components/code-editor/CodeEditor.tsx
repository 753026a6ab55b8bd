/**
 * The only door to Monaco. Monaco is loaded lazily (it is big and cannot run in jsdom); unit tests
 * replace this module with plain textareas through vi.mock.
 */
import { lazy, Suspense } from 'react'
import { useT } from '../../i18n/i18n'
import type { CodeEditorProps, DiffViewProps } from './editor-props'

export type { CodeEditorProps, DiffViewProps, EditorProblem } from './editor-props'

const MonacoCode = lazy(async () => ({ default: (await import('./MonacoEditors')).MonacoCodeEditor }))
const MonacoDiff = lazy(async () => ({ default: (await import('./MonacoEditors')).MonacoDiffView }))

function Loading(): React.JSX.Element {
  const t = useT()
  return <div className="editor-loading">{t('editor.loading')}</div>
}

/** A Markdown/YAML code editor (Monaco). */
export function CodeEditor(props: CodeEditorProps): React.JSX.Element {
  return (
    <Suspense fallback={<Loading />}>
      <MonacoCode {...props} />
    </Suspense>
  )
}

/** A side-by-side diff (Monaco DiffEditor), right side optionally editable. */
export function DiffView(props: DiffViewProps): React.JSX.Element {
  return (
    <Suspense fallback={<Loading />}>
      <MonacoDiff {...props} />
    </Suspense>
  )
}
