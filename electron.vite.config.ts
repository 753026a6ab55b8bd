import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

/**
 * Three builds (electron-vite): the Electron main process (our app shell), the sandboxed preload (CJS:
 * package.json has no "type": "module", so it is emitted as out/preload/index.js) and the React renderer,
 * which web mode (`skillbench serve`) serves too. Monaco is bundled from node_modules (no CDN); its
 * workers are emitted as files by Vite's `?worker` imports.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve(__dirname, 'src/main/app/main.ts') } }
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
