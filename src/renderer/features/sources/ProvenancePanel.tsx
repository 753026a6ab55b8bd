import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Lexer, parse, Parser } from 'yaml'
import type { SkillSourceInfo } from '../../../shared/api-deploy'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { ErrorNotice } from '../../components/ErrorNotice'
import { useI18n } from '../../i18n/i18n'
import { translateLine } from '../../i18n/messages-errors'
import { shapeProblem } from '../../../shared/yaml-policy'
import { splitFrontMatter } from '../editor/front-matter'

const rec = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null)

/** Where a skill installed from git came from (`metadata.skillbench.source`); null when it was not installed. Pure. */
export function provenanceOf(text: string): SkillSourceInfo | null {
  const split = splitFrontMatter(text)
  if (!split) return null
  // too big or too deep for the parser (shared/yaml-policy.ts): the editor's own check says why
  if (shapeProblem({ Lexer, Parser }, split.yaml, 'skill front matter')) return null
  let data: unknown
  try {
    data = parse(split.yaml)
  } catch {
    return null
  }
  const src = rec(rec(rec(rec(data)?.metadata)?.skillbench)?.source)
  if (!src || typeof src.repo !== 'string' || typeof src.commit !== 'string') return null
  return { repo: src.repo, ref: typeof src.ref === 'string' ? src.ref : '', commit: src.commit, path: typeof src.path === 'string' ? src.path : '' }
}

/** The editor's side panel section for an installed skill: its source, and a check for upstream changes. */
export function ProvenancePanel(props: { library: string; text: string; skillPath: string }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const { navigate } = useAppState()
  const source = provenanceOf(props.text)
  const check = useMutation({
    mutationFn: () => api.call('sources.update', { library: props.library }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.curatePlan(props.library) })
  })
  if (!source) return null
  const mine = check.data
  const proposal = mine?.proposals.find((p) => p.path === props.skillPath)
  const failed = mine?.failed.find((f) => f.path === props.skillPath)
  return (
    <section className="panel" data-testid="provenance">
      <h2>{t('source.title')}</h2>
      <dl className="meta">
        <dt>{t('source.repo')}</dt>
        <dd className="break" data-testid="provenance-repo">{source.repo}</dd>
        <dt>{t('source.ref')}</dt>
        <dd>{source.ref}</dd>
        <dt>{t('source.commit')}</dt>
        <dd>
          <code title={source.commit}>{source.commit.slice(0, 12)}</code>
        </dd>
        <dt>{t('source.path')}</dt>
        <dd className="break">{source.path || t('source.root')}</dd>
      </dl>
      <div className="toolbar provenance-actions">
        <button type="button" className="btn btn-small" onClick={() => check.mutate()} disabled={check.isPending} data-testid="provenance-check">
          {check.isPending ? t('source.checking') : t('source.check')}
        </button>
      </div>
      {check.error && <ErrorNotice error={check.error} action="failed.checkUpdates" />}
      {mine && (
        <p className="small" role="status" data-testid="provenance-result">
          {proposal ? (
            <>
              {t('source.queued')}{' '}
              <button type="button" className="link" onClick={() => navigate({ screen: 'curate' })}>
                {t('source.review')}
              </button>
            </>
          ) : failed ? (
            t('source.failedOne', { reason: translateLine(failed, failed.reason, lang) })
          ) : (
            t('source.upToDate')
          )}
        </p>
      )}
    </section>
  )
}
