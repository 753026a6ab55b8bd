import type { IpcMainInvokeEvent } from 'electron'
import { API_METHODS } from '../../shared/api'
import { apiChannel, type IpcAnswer } from '../../preload/channels'
import { errorShape } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import type { Workbench } from '../workbench'
import { isAppUrl } from './app-url'

/** The part of `ipcMain` the wiring uses (a fake one in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown): void
  removeHandler(channel: string): void
}

/**
 * True when an IPC call comes from our renderer's top frame: its URL is the app origin (or the dev server),
 * and it is not a sub-frame (an iframe must never reach the API).
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, devServerUrl?: string): boolean {
  const frame = event.senderFrame
  if (!frame) {
    return false
  }
  if (frame.parent) {
    return false
  }
  return isAppUrl(frame.url, devServerUrl)
}

/**
 * Wires every contract method to its channel `api:<method>`: sender checked, input parsed with the method's
 * schema (inside `workbench.dispatch`), answer sent as an `IpcAnswer` envelope. Returns the wiring table
 * (channel per method) and a function removing the handlers.
 */
export function wireIpc(
  ipcMain: IpcMainLike,
  workbench: Pick<Workbench, 'dispatch'>,
  opts: { devServerUrl?: string } = {}
): { channels: Record<string, string>; dispose(): void } {
  const channels: Record<string, string> = {}
  for (const method of API_METHODS) {
    const channel = apiChannel(method)
    channels[method] = channel
    ipcMain.handle(channel, async (event, ...args): Promise<IpcAnswer> => {
      if (!isTrustedSender(event, opts.devServerUrl)) {
        return { ok: false, error: errorShape('forbidden', coded('api.forbidden_page')) }
      }
      if (args.length > 1) {
        return { ok: false, error: { code: 'bad_request', message: `${method} takes one input object` } }
      }
      return workbench.dispatch(method, args[0] ?? {})
    })
  }
  return {
    channels,
    dispose() {
      for (const channel of Object.values(channels)) {
        ipcMain.removeHandler(channel)
      }
    }
  }
}
