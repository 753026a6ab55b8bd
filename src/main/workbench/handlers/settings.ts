/** The app's own settings: what it is, the settings file, the model's key and a test of the connection. */
import type { ApiHandlers, PublicSettings } from '../../../shared/api'
import { baseUrlProblem, baseUrlProblemMessage } from '../../../shared/base-url'
import { coded } from '../../../shared/error-codes'
import { maskKey } from '../../llm/redact'
import { API_KEY_SECRET, type WorkbenchContext } from '../context'
import { badRequest } from '../errors'
import { testLlmConnection } from '../llm-test'

export type SettingsMethods = 'app.info' | 'settings.get' | 'settings.update' | 'settings.setApiKey' | 'llm.test'

export function settingsHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, SettingsMethods> {
  const { deps, settingsStore, registry } = ctx

  async function publicSettings(): Promise<PublicSettings> {
    const s = settingsStore.settings
    const key = await deps.secrets.get(API_KEY_SECRET)
    const { apiKey: _never, ...llm } = s.llm
    return {
      ...structuredClone(s),
      llm: {
        ...llm,
        hasApiKey: Boolean(key),
        apiKeyHint: maskKey(key),
        keyStorage: deps.secrets.kind,
        ...(deps.secrets.warning ? { keyWarning: deps.secrets.warning } : {})
      }
    }
  }

  return {
    'app.info': async () => {
      const startRoot = registry.startRoot()
      return {
        version: deps.version ?? '0.1.0',
        transport: deps.transport,
        platform: process.platform,
        settingsPath: settingsStore.file,
        runId: ctx.runId,
        ...(startRoot ? { startRoot } : {})
      }
    },

    'settings.get': async () => publicSettings(),

    'settings.update': async ({ patch }) => {
      // an empty URL is fine while the model is not used; anything typed must be a real http(s) URL
      const provider = patch.llm?.provider ?? settingsStore.settings.llm.provider
      const urlProblem = patch.llm?.baseUrl !== undefined ? baseUrlProblem(patch.llm.baseUrl) : null
      if (urlProblem && (urlProblem !== 'empty' || provider === 'openai')) {
        throw badRequest(coded('skill.not_saved', { reason: baseUrlProblemMessage(urlProblem) }))
      }
      if (patch.dataRoots) {
        const roots: string[] = []
        for (const root of patch.dataRoots) {
          roots.push(await registry.addRoot(root))
        }
        patch = { ...patch, dataRoots: [...new Set(roots)] }
      }
      await settingsStore.update(patch)
      await ctx.autoEnhancer.settingsChanged()
      await ctx.refreshWatchers()
      deps.emit({ type: 'settings.changed' })
      return publicSettings()
    },

    'settings.setApiKey': async ({ apiKey }) => {
      const value = apiKey?.trim() || null
      await deps.secrets.set(API_KEY_SECRET, value)
      await ctx.secretsChanged()
      deps.emit({ type: 'settings.changed' })
      return publicSettings()
    },

    'llm.test': async (input) => {
      const s = settingsStore.settings.llm
      return testLlmConnection(
        { baseUrl: input.baseUrl ?? s.baseUrl, model: input.model ?? s.model, timeoutMs: input.timeoutMs ?? s.timeoutMs, apiKey: await deps.secrets.get(API_KEY_SECRET) },
        ctx.createLlm,
        ctx.errorMessage
      )
    }
  }
}
