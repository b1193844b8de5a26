// The screens' build: one small bundle (Preact and the generated client) with content-hashed names
// under assets/, which bridge-club serves with a year's caching (services/gateway/src/screens.rs).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

import { defineConfig, type Plugin } from "vite";

/**
 * Writes every built file of 1 kB or more compressed beside it (`.br`, `.gz`), which bridge-club
 * serves to browsers that accept them: compressed once here at the highest levels rather than on
 * every request. Node's own zlib: no dependency.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [precompress()],
  // JSX through the bundler's own transform into Preact's runtime: no Babel, no plugin.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  resolve: {
    // The client package is linked from services/clients/typescript, which has its own copy of
    // these; one copy each keeps the bundle small and ConnectError one class.
    dedupe: ["@bufbuild/protobuf", "@connectrpc/connect", "@connectrpc/connect-web", "preact"],
  },
  build: { target: "es2022", sourcemap: false },
  // `npm run dev` against a bridge-club on its default address: the screens call the page's own
  // origin, which the dev server forwards.
  server: {
    proxy: { "^/(bridgeclub|grpc)\\.": { target: "http://127.0.0.1:50051", changeOrigin: true } },
  },
});
