import { useQuery } from '@tanstack/react-query'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { CodeEditor } from '../../components/code-editor/CodeEditor'
import { Dialog } from '../../components/Dialog'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatBytes } from '../../components/format'
import { useI18n } from '../../i18n/i18n'

const LANGUAGES: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  jsx: 'javascript',
  sh: 'shell',
  bash: 'shell',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  md: 'markdown',
  html: 'html',
  css: 'css',
  sql: 'sql',
  java: 'java',
  go: 'go',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  xml: 'xml'
}

/** Monaco's language id for a file name ('plaintext' when unknown). Pure. */
export function languageOf(file: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? ''
  return LANGUAGES[ext] ?? 'plaintext'
}

/** A backed-up code file of a skill, read-only in Monaco. */
export function CodeFileDialog(props: { library: string; path: string; onClose: () => void }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const file = useQuery({ queryKey: queryKeys.codeFile(props.library, props.path), queryFn: () => api.call('skills.readCode', { library: props.library, path: props.path }) })
  return (
    <Dialog title={props.path} onClose={props.onClose} wide testId="code-dialog">
      {file.error && <ErrorNotice error={file.error} action="failed.readCode" onRetry={() => void file.refetch()} />}
      {file.isLoading && <p className="muted">{t('common.loading')}</p>}
      {file.data && (
        <>
          <p className="muted" data-testid="code-info">
            {t('code.readOnly', { size: formatBytes(file.data.size) })}
            {file.data.truncated ? ` · ${t('code.truncated')}` : ''}
          </p>
          {file.data.binary ? (
            <p className="empty">{t('code.binary')}</p>
          ) : (
            <div style={{ height: '60vh' }}>
              <CodeEditor value={file.data.text} onChange={() => undefined} readOnly language={languageOf(file.data.path)} ariaLabel={props.path} />
            </div>
          )}
        </>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {t('code.close')}
        </button>
      </div>
    </Dialog>
  )
}
