import { createContext, useContext, useSyncExternalStore } from 'react'
import type { JobStore, JobView } from './job-store'

const JobsContext = createContext<JobStore | null>(null)

/** Provides the app's job store. */
export const JobsProvider = JobsContext.Provider

/** The job store itself (to track a job the UI just started). */
export function useJobStore(): JobStore {
  const store = useContext(JobsContext)
  if (!store) throw new Error('useJobStore() outside <JobsProvider>')
  return store
}

/** All jobs this window knows, re-rendering on every progress event. */
export function useJobs(): Record<string, JobView> {
  const store = useJobStore()
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
