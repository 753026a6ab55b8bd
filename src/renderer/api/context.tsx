import { createContext, useContext } from 'react'
import type { SkillbenchApi } from '../../shared/api'

const ApiContext = createContext<SkillbenchApi | null>(null)

/** Provides the transport-agnostic API to every screen. */
export const ApiProvider = ApiContext.Provider

/** The API the app was started with (Electron preload or web client). */
export function useApi(): SkillbenchApi {
  const api = useContext(ApiContext)
  if (!api) throw new Error('useApi() outside <ApiProvider>')
  return api
}
