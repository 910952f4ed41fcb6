// The settings every one-file bundle of a Node entry point here shares (esbuild's options; each
// package passes them to its own esbuild with its entry points): ES modules for Node 20 and later,
// the `module` build of each dependency, and a `require` for the CommonJS dependencies (undici,
// ws) that require Node's built-in modules. Used by packages/reference-server/scripts/bundle.mjs
// and apps/contract-tests/scripts/bundle-worker.mjs.
export const nodeBundle = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  mainFields: ["module", "main"],
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);'
  },
  legalComments: "none",
  logLevel: "warning"
}
