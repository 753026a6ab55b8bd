import { spawn } from 'node:child_process'
import path from 'node:path'
import { parseCommandArgs, UsageError, type CliCommand } from '../common'
import { coded } from '../../../shared/error-codes'

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

export const command: CliCommand = {
  name: 'serve',
  usage: 'skillbench serve [--port P] [--root-dir DIR] [--no-open] [--no-build]',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    const port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(coded('cli.port_range', { value: values.port! }))
    }
    const { startWebServer } = await import('../../web-server/http-server')
    const { defaultRendererDir } = await import('../../web-server/project-paths')
    const { buildRenderer, rendererBuilt } = await import('../../web-server/ensure-renderer')
    const rendererDir = defaultRendererDir(io.env)
    if (!rendererBuilt(rendererDir)) {
      if (values['no-build']) {
        io.stderr(`The page is not built (${rendererDir} is missing): run \`npm run build\` first.\n`)
      } else {
        io.stderr('Building the app page once (electron-vite build)…\n')
        if (!(await buildRenderer(io.stderr))) {
          io.stderr('The build failed: run `npm run build` to see why. Serving the API anyway.\n')
        }
      }
    }
    // The URL is printed (and the browser opened) as soon as the server listens: the page loads while the API does.
    const server = await startWebServer({
      port,
      rootDir: values['root-dir'] ? path.resolve(io.cwd, values['root-dir']) : undefined,
      rendererDir,
      onListening: ({ openUrl }) => {
        io.stdout(`Skillbench is running at ${openUrl}\n`)
        io.stderr('Keep this URL private: its token lets a page use your workbench. Ctrl-C stops the server.\n')
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
