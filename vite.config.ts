import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = process.env.PORT ?? '3000';

export default defineConfig({
  root: 'src/client',
  base: '/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // scripts/check-bundle.mjs reads it to sum what each route downloads.
    manifest: true,
  },
  server: {
    port: 5173,
    // `npm run dev`: the API runs on PORT, Vite serves the client with hot reload.
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, ws: true } },
  },
});
