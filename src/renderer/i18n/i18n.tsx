import { createContext, useCallback, useContext, useMemo } from 'react'
import type { ReactNode } from 'react'
import { MESSAGES } from './messages'
import type { MessageKey } from './messages'

export type Lang = 'en' | 'zh'
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string

interface I18nValue {
  lang: Lang
  setLang: (lang: Lang) => void
  t: Translate
}

const I18nContext = createContext<I18nValue | null>(null)

/** Fills `{name}` placeholders. */
export function formatMessage(template: string, vars?: Record<string, string | number>): string {
  if (!vars) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

/** Provides the UI language; the owner decides where the choice is stored (settings). */
export function I18nProvider(props: { lang: Lang; setLang: (lang: Lang) => void; children: ReactNode }): React.JSX.Element {
  const { lang, setLang } = props
  const t = useCallback<Translate>((key, vars) => formatMessage(MESSAGES[lang][key] ?? MESSAGES.en[key], vars), [lang])
  const value = useMemo(() => ({ lang, setLang, t }), [lang, setLang, t])
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>
}

/** The current language and its translate function. */
export function useI18n(): I18nValue {
  const value = useContext(I18nContext)
  if (!value) throw new Error('useI18n() outside <I18nProvider>')
  return value
}

/** Shorthand for the translate function. */
export function useT(): Translate {
  return useI18n().t
}
