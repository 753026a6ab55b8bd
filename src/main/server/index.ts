export { startServer, checkHostAndOrigin, TOKEN_HEADER, type RunningServer, type ServerOptions } from './http-server'
export { RENDERER_CSP } from './csp'
export { defaultRendererDir, projectRoot } from './project-paths'
