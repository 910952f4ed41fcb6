#!/usr/bin/env node
/* global process, URL */
// The command line in one file (dist/bin.bundle.js, scripts/bundle.mjs), which starts in about a
// third of the time its ~900 modules take one by one. With a SQLite store (`--store`), whose client
// is the application's own install and would not share tags with the bundle's copy of effect, and
// in a build without the bundle, the unbundled dist/bin.js. Both run the same command.
import { existsSync } from "node:fs"
import module from "node:module"

// Node >= 22.1 keeps V8's compiled code of the modules (NODE_COMPILE_CACHE, else
// os.tmpdir()/node-compile-cache) for the next start, as tsc and eslint do; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.()

const sqlite = process.argv.slice(2).some((arg) => arg === "--store" || arg.startsWith("--store="))
const bundle = new URL("../dist/bin.bundle.js", import.meta.url)
await import(!sqlite && existsSync(bundle) ? bundle.href : "../dist/bin.js")
