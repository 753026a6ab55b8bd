import { expect } from 'vitest'

/** The error `run` throws (or rejects with), checked to be a `kind`; fails the test when nothing is thrown. */
export async function thrownAs<E extends Error>(kind: new (...args: never[]) => E, run: () => unknown): Promise<E> {
  try {
    await run()
  } catch (err) {
    expect(err).toBeInstanceOf(kind)
    return err as E
  }
  throw new Error(`no ${kind.name} thrown`)
}
