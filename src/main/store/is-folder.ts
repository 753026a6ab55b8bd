import { promises as fsp } from 'node:fs'

/** Whether `p` is a folder now (a link followed, as stat does); false when it is not there or cannot be read. */
export async function isFolder(p: string): Promise<boolean> {
  return (await fsp.stat(p).catch(() => null))?.isDirectory() ?? false
}
