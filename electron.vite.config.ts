import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path, { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'

const CLI_SOURCES_FILE = 'cli-sources.json'

// Electron is an optional dependency (npm skips it on Node 20: Electron 42+ declares Node ≥ 22.12). electron-vite
// reads the installed package only for its major version (the preload's Node and the renderer's Chrome targets):
// give it the declared one, so the build is the same whether or not the package is there.
const declaredElectron = (JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> })
  .optionalDependencies.electron
process.env.ELECTRON_MAJOR_VER ??= declaredElectron?.split('.')[0]

/**
 * Writes `out/main/cli-sources.json`: when the build started and every source file the compiled CLI (entry `cli`
 * and every chunk it imports, statically or lazily) was built from. `bin/skillbench.cjs` stats exactly these
 * files (a millisecond) and runs the sources through tsx instead when one is newer or gone, so a stale build
 * never runs old code in a dev checkout.
 */
function cliSourcesManifest(): Plugin {
  let builtAt = 0
  return {
    name: 'skillbench:cli-sources',
    buildStart() {
      builtAt = Date.now()
    },
    generateBundle(_options, bundle) {
      const byName = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])))
      const entry = [...byName.values()].find((c) => c.isEntry && c.name === 'cli')
      if (!entry) return
      const seen = new Set<string>()
      const modules = new Set<string>([resolve(__dirname, 'electron.vite.config.ts')])
      const queue = [entry.fileName]
      while (queue.length > 0) {
        const chunk = byName.get(queue.pop()!)
        if (!chunk || seen.has(chunk.fileName)) continue
        seen.add(chunk.fileName)
        for (const id of chunk.moduleIds) if (id.startsWith(resolve(__dirname, 'src') + path.sep)) modules.add(id)
        queue.push(...chunk.imports, ...chunk.dynamicImports)
      }
      const sources = [...modules].map((id) => path.relative(__dirname, id).split(path.sep).join('/')).sort()
      this.emitFile({ type: 'asset', fileName: CLI_SOURCES_FILE, source: JSON.stringify({ builtAt, sources }, null, 1) + '\n' })
    }
  }
}

/**
 * Fills `out/main/code-cache` once the Node build is written (scripts/train-code-cache.cjs): the CLI's commands
 * then compile their chunks from V8 bytecode instead of from text (bin/code-cache.cjs). Not in watch mode.
 */
function codeCacheTraining(): Plugin {
  let watching = false
  return {
    name: 'skillbench:code-cache',
    buildStart() {
      watching = this.meta.watchMode
    },
    closeBundle() {
      if (watching) return
      spawnSync(process.execPath, [resolve(__dirname, 'scripts/train-code-cache.cjs')], { stdio: 'inherit' })
    }
  }
}

/**
 * Three builds (electron-vite): the Node side (the Electron main process and the `skillbench` CLI), the sandboxed
 * preload (CJS: package.json has no "type": "module", so it is emitted as out/preload/index.js) and the React
 * renderer, which web mode (`skillbench serve`) serves too. Monaco is bundled from node_modules (no CDN); its
 * workers are emitted as files by Vite's `?worker` imports.
 *
 * The Node build has two entries sharing chunks: `index` (Electron) and `cli` (`bin/skillbench.cjs` loads it;
 * every command is its own lazily loaded chunk). Its target is the Node that package.json's engines allow, as
 * the CLI runs on the user's Node; dependencies stay external (loaded from node_modules only where used).
 */
export default defineConfig({
  main: {
    plugins: [cliSourcesManifest(), codeCacheTraining()],
    build: {
      outDir: 'out/main',
      target: 'node20.19',
      // zod is bundled (tree-shaken): required whole from node_modules it loads every locale and costs ~75 ms of
      // the app server's start (the API's input schemas), on the way to the first screen
      externalizeDeps: { exclude: ['zod'] },
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'src/main/app/main.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          // worker threads of the search index's cold build (found next to the CLI at run time)
          'search-worker': resolve(__dirname, 'src/main/search/read-worker.ts')
        }
      }
    }
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // a sandboxed preload can require nothing but electron: it imports only types from src/shared
      rolldownOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      // the page loads faster minified (1.3 MB → a few hundred KB for the first screen); Monaco stays a lazy chunk
      minify: true,
      // Monaco is one big lazy chunk by nature
      chunkSizeWarningLimit: 5000,
      rolldownOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
