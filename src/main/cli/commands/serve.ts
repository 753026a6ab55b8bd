import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseCommandArgs, UsageError, type CliCommand } from '../common'
import { coded } from '../../../shared/error-codes'
import { CodedError } from '../../../shared/api-error'
import { say } from '../lang'

const OPTIONS = {
  port: { type: 'string', default: '0' },
  'root-dir': { type: 'string' },
  open: { type: 'boolean', default: true },
  'no-open': { type: 'boolean', default: false },
  'no-build': { type: 'boolean', default: false }
} as const

/** Opens a URL in the user's browser; failures are ignored (the URL is printed anyway). */
export function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]]
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // no browser opener here: the printed URL is enough
  }
}

/** A --root-dir that is not a folder, said as the app would say it (exit 1), before the server starts. */
async function checkRootDir(root: string): Promise<void> {
  const stat = await fs.promises.stat(root).catch(() => undefined)
  if (!stat) throw new CodedError('not_found', coded('path.folder_not_found', { path: root }))
  if (!stat.isDirectory()) throw new CodedError('bad_request', coded('path.not_folder', { path: root }))
}

export const command: CliCommand = {
  name: 'serve',
  options: OPTIONS,
  usage: 'skillbench serve [--port P] [--root-dir DIR] [--no-open] [--no-build]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(coded('cli.port_range', { value: values.port! }))
    }
    // the root is checked before anything listens: a URL is printed (and a browser opened) only for a server that works
    const rootDir = values['root-dir'] ? path.resolve(io.cwd, values['root-dir']) : undefined
    if (rootDir !== undefined) await checkRootDir(rootDir)
    const { startWebServer } = await import('../../web-server/http-server')
    const { defaultRendererDir } = await import('../../web-server/project-paths')
    const { buildRenderer, rendererBuilt } = await import('../../web-server/ensure-renderer')
    const rendererDir = defaultRendererDir(io.env)
    if (!rendererBuilt(rendererDir)) {
      if (values['no-build']) {
        io.stderr(`${say(io, coded('serve.not_built', { dir: rendererDir }))}\n`)
      } else {
        io.stderr(`${say(io, coded('serve.building'))}\n`)
        if (!(await buildRenderer(io.stderr))) {
          io.stderr(`${say(io, coded('serve.build_failed'))}\n`)
        }
      }
    }
    // The URL is printed (and the browser opened) as soon as the server listens: the page loads while the API does.
    const server = await startWebServer({
      port,
      rootDir,
      rendererDir,
      onListening: ({ openUrl }) => {
        // the URL line is read by scripts: on stdout, in English whatever --lang says
        io.stdout(`Skillbench is running at ${openUrl}\n`)
        io.stderr(`${say(io, coded('serve.keep_private'))}\n`)
        if (values.open && !values['no-open']) {
          openInBrowser(openUrl)
        }
      }
    })
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) {
        resolve()
      }
      io.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    await server.close()
    return 0
  }
}
