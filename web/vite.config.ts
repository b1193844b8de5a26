// The screens' build: one small bundle (Preact and the generated client) with content-hashed names
// under assets/, which bridge-club serves with a year's caching (services/gateway/src/screens.rs).
import { defineConfig } from "vite";

export default defineConfig({
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
