/* global console, URL */
// Two entry points in one file each, made after `tsc`, as packages/reference-server does for its
// own: ES modules load one by one, and hundreds of them (effect, effect/Schema, @effect/cli, the
// contract's schemas, the checks...) are most of a start.
// - dist/internal/proxy/worker.bundle.js: the proxy's judging thread. Its copy of effect is safe in
//   a worker: nothing in its isolate shares a tag with the relay's thread, and the two threads
//   exchange plain structured-cloned messages.
// - dist/bin.bundle.js: the command line (bin/contract-tests.js). Its copy of effect is the only
//   one in its process. A module that finds a file beside itself (`import.meta.url`: a worker
//   thread's module, the package's own package.json) finds it where it was built: its own
//   package's files by their place beside the bundle, another package's from that package.
import { build } from "esbuild"
import { readFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { nodeBundle } from "../../../scripts/node-bundle.mjs"

const dist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url))

await build({
  entryPoints: [dist("internal/proxy/worker.js")],
  outfile: dist("internal/proxy/worker.bundle.js"),
  ...nodeBundle
})

/** The directory of the package a file is in, and its name. */
const packageOf = (file) => {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      return { dir, name: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name }
    } catch {
      continue
    }
  }
  throw new Error(`no package.json above ${file}`)
}

const posix = (path) => path.split(sep).join("/")
const own = packageOf(dist("bin.js"))

/** `import.meta.url` of each bundled module, as the URL of the file it was built from. */
const builtUrls = {
  name: "built-urls",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
      if (!text.includes("import.meta.url")) return undefined
      const pkg = packageOf(args.path)
      const url =
        pkg.name === own.name
          ? `new URL(${JSON.stringify(`./${posix(relative(dist(""), args.path))}`)}, import.meta.url).href`
          : `new URL(${JSON.stringify(posix(relative(pkg.dir, args.path)))}, require("node:url").pathToFileURL(require.resolve(${JSON.stringify(`${pkg.name}/package.json`)}))).href`
      return { contents: text.split("import.meta.url").join(url), loader: "js" }
    })
  }
}

await build({
  entryPoints: [dist("bin.js")],
  outfile: dist("bin.bundle.js"),
  ...nodeBundle,
  external: ["@effect/sql-sqlite-node", "better-sqlite3"],
  plugins: [builtUrls]
})
console.log("dist/internal/proxy/worker.bundle.js, dist/bin.bundle.js")
