/**
 * The error `SkillbenchApi.call` throws, same on both transports. Its own module without zod: the renderer imports
 * it, and the API contract's schemas (zod) would otherwise be parsed and built by every page load.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
    this.name = 'ApiError'
  }
}
