/**
 * The Content-Security-Policy of the renderer page, for both hosts (web mode header, Electron header).
 *
 * - scripts only from our own origin (no inline, no eval: Monaco's ESM build needs neither);
 * - `style-src 'unsafe-inline'`: Monaco and React set inline styles (positions of editor lines, widgets);
 * - workers from our origin or `blob:` (Vite may emit a worker as a blob URL);
 * - `connect-src 'self'`: the renderer talks to its own host only (the LLM is called from the Node side).
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'"
].join('; ')
