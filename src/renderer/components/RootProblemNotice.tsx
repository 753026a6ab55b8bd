import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { DataRootInfo } from '../../shared/api'
import { useApi } from '../api/context'
import { queryKeys } from '../api/query-keys'
import { useAppState } from '../app-state'
import { useI18n } from '../i18n/i18n'
import type { MessageKey } from '../i18n/messages'
import { ErrorNotice } from './ErrorNotice'
import { coded } from '../../shared/error-codes'
import { translateMessage } from '../i18n/messages-errors'

/** What each problem says (the bundled sample data is said by the core's own words, `library.bundled_sample_read_only`). */
const TEXT: Record<Exclude<NonNullable<DataRootInfo['problem']>, 'bundled-sample'>, MessageKey> = {
  missing: 'rootProblem.missing',
  empty: 'rootProblem.empty',
  library: 'rootProblem.library',
  'task-folder': 'rootProblem.taskFolder',
  sessions: 'rootProblem.sessions',
  'no-tasks': 'rootProblem.noTasks'
}

function parentOf(p: string): string {
  const cut = p.replace(/[\\/]+$/, '').search(/[\\/][^\\/]*$/)
  return cut > 0 ? p.slice(0, cut) : p
}

/**
 * Why a data root shows no tasks, naming the folder and the layout Skillbench expects, with the one action that
 * fixes the usual mix-ups: open a library as a library, use a task folder's parent, add a sessions folder.
 */
export function RootProblemNotice(props: { root: DataRootInfo; inSettings?: boolean }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { setLibrary, setRoot, navigate } = useAppState()
  const { root, inSettings } = props
  const fix = useMutation({
    mutationFn: async (): Promise<void> => {
      if (root.problem === 'library') {
        const opened = await api.call('libraries.open', { path: root.path })
        // chosen in Settings as a data root by mistake: it is a library instead, no longer listed as a root with no tasks
        if (inSettings) await api.call('roots.remove', { path: root.path })
        // the list with it first, so the selection is not taken back as one the list does not hold
        client.setQueryData(queryKeys.libraries(), opened)
        setLibrary(root.path)
        // its skills are the answer to the click (the notice itself stays true of the root on Workspaces and Reflect)
        navigate({ screen: 'skills' })
      } else if (root.problem === 'task-folder') {
        const list = await api.call('roots.add', { path: parentOf(root.path) })
        const added = list.find((r) => r.path === parentOf(root.path)) ?? list[list.length - 1]
        if (added) setRoot(added.path)
      } else if (root.problem === 'sessions') {
        await api.call('sessions.add', { source: 'claude', path: root.path })
        navigate({ screen: 'workspaces' })
      }
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.libraries() })
      void client.invalidateQueries({ queryKey: queryKeys.roots() })
      void client.invalidateQueries({ queryKey: queryKeys.sessions() })
    }
  })
  if (!root.problem) return null
  if (root.problem === 'bundled-sample') {
    // remembered by an older version: listed read-only, in the words that refuse adding it (naming its writable copy)
    const words = coded('library.bundled_sample_read_only', { path: root.path, copy: root.bundledSample?.copy ?? '', sample: root.bundledSample?.sample ?? root.path })
    return (
      <div className="notice-panel" role="status" data-testid="root-problem" data-problem="bundled-sample">
        <p>
          <strong>{t('rootProblem.bundledTitle', { path: root.path })}</strong>
        </p>
        <p>{translateMessage(words, words.text, lang)}</p>
        <p className="muted">{t(inSettings ? 'rootProblem.bundledForget' : 'rootProblem.bundledForgetInSettings')}</p>
        {!inSettings && (
          <div className="toolbar">
            <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
              {t('rootProblem.settings')}
            </button>
          </div>
        )}
      </div>
    )
  }
  const action: MessageKey | null =
    root.problem === 'library' ? 'rootProblem.openAsLibrary' : root.problem === 'task-folder' ? 'rootProblem.useParent' : root.problem === 'sessions' ? 'rootProblem.addSessions' : null
  return (
    <div className="notice-panel" role="status" data-testid="root-problem">
      <p>
        <strong>{inSettings && root.problem === 'library' ? t('settings.rootIsLibrary', { path: root.path }) : t('rootProblem.title', { path: root.path })}</strong>
      </p>
      <p>{t(TEXT[root.problem], { path: root.path, parent: parentOf(root.path) })}</p>
      <p className="muted">
        {t('rootProblem.layout')} <code>{'<root>/<user>/output_YYYYMMDD_HHMMSS/logs/manager.out'}</code>
      </p>
      <div className="toolbar">
        {action && (
          <button type="button" className="btn btn-primary" data-testid="root-problem-fix" disabled={fix.isPending} onClick={() => fix.mutate()}>
            {t(inSettings && root.problem === 'library' ? 'settings.openAsLibraryInstead' : action, { parent: parentOf(root.path) })}
          </button>
        )}
        {!inSettings && (
          <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
            {t('rootProblem.settings')}
          </button>
        )}
      </div>
      {fix.error && <ErrorNotice error={fix.error} action="failed.fixRoot" />}
    </div>
  )
}
