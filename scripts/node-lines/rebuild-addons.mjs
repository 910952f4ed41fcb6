/* global process, console */
// Run under another Node line (`npx -p node@X -p node-gyp@Y node rebuild-addons.mjs <root> <cache> [<builds>]`):
// compiles, for this Node's ABI, every native addon that the install compiled for the machine's
// Node (a package with a binding.gyp and a build/Release/*.node, e.g. better-sqlite3) and does not
// load here. Each is compiled from the installed package's own sources, against this Node's
// headers, into <builds>/<package>/node-<version>-<platform>-<arch>-<compiler>/ (<builds> is
// <cache> unless given), exactly as `npm install` would on a machine with this Node. A build is
// made once per package version, Node headers, compiler and node-gyp: <builds> may be shared by
// several clones (test.mjs keeps it in the user's cache directory), each build is written under a
// name of its own and renamed into place when complete. Writes <cache>/<abi>.json, which maps each
// installed addon to its build for this ABI; preload-addons.mjs loads the builds from that map.
// Prints one line per addon.
import { execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const [root, cache, builds = cache] = process.argv.slice(2).map((p) => resolve(p))
const abi = `node-v${process.versions.modules}-${process.platform}-${process.arch}`
// Headers of this Node: beside the binary in an official distribution (<dir>/bin/node and
// <dir>/include/node); the npm package `node` holds the distribution in node-<platform>-<arch>.
const bin = dirname(realpathSync(process.execPath))
const nodedir = [
  resolve(bin, ".."),
  resolve(bin, "..", "node_modules", `node-${process.platform}-${process.arch}`)
].find((dir) => existsSync(join(dir, "include", "node", "node.h")))
if (nodedir === undefined) {
  console.error(`no headers of Node ${process.versions.node} beside ${process.execPath}`)
  process.exit(1)
}

/** Packages of the install (pnpm's virtual store) that hold a compiled addon: a package is the
 * directory in its store entry; its dependencies there are symbolic links to their own entries. */
const store = join(root, "node_modules", ".pnpm")
const inEntry = (modules) =>
  readdirSync(modules)
    .flatMap((name) =>
      name.startsWith("@") ? readdirSync(join(modules, name)).map((sub) => join(name, sub)) : [name]
    )
    .map((name) => join(modules, name))
    .filter((dir) => !lstatSync(dir).isSymbolicLink())
const compiled = readdirSync(store, { withFileTypes: true })
  .filter(
    (entry) =>
      entry.isDirectory() &&
      entry.name !== "node_modules" &&
      existsSync(join(store, entry.name, "node_modules"))
  )
  .flatMap((entry) =>
    inEntry(join(store, entry.name, "node_modules")).map((dir) => ({ id: entry.name, dir }))
  )
  .filter(
    ({ dir }) => existsSync(join(dir, "binding.gyp")) && existsSync(join(dir, "build", "Release"))
  )

/** Whether an addon built for the machine's Node fails to load here because of its ABI. */
const wrongAbi = (file) => {
  try {
    process.dlopen({ exports: {} }, file)
    return false
  } catch (error) {
    return String(error?.message).includes("NODE_MODULE_VERSION")
  }
}

const run = (command, args, options) =>
  new Promise((done, fail) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", fail)
    child.on("close", (code) =>
      code === 0
        ? done()
        : fail(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`))
    )
  })

/** The compilers and node-gyp that make a build (a build is reused only when they are the same). */
const version = (command) => {
  try {
    return execFileSync(command, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"]
    })
  } catch {
    return `${command}: none`
  }
}
const toolchain = createHash("sha256")
  .update([process.env.CC ?? "cc", process.env.CXX ?? "c++", "node-gyp"].map(version).join("\n"))
  .digest("hex")
  .slice(0, 12)

const map = {}
for (const { id, dir } of compiled) {
  const release = join(dir, "build", "Release")
  const addons = readdirSync(release).filter((name) => name.endsWith(".node"))
  if (!addons.some((name) => wrongAbi(join(release, name)))) continue
  const name = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name
  // one build per Node whose headers compiled it (same ABI, different headers: different builds)
  // and per toolchain
  const target = join(
    builds,
    id,
    `node-${process.versions.node}-${process.platform}-${process.arch}-${toolchain}`
  )
  const started = Date.now()
  if (existsSync(join(target, "build", "Release", addons[0]))) {
    console.log(`${name}: compiled for ${abi} before, reused (${target})`)
  } else {
    const building = `${target}.building-${process.pid}`
    rmSync(building, { recursive: true, force: true })
    mkdirSync(dirname(building), { recursive: true })
    // the sources only: not the machine's build, not the links to dependencies
    cpSync(dir, building, {
      recursive: true,
      filter: (src) => !["build", "node_modules"].includes(relative(dir, src).split(/[\\/]/)[0])
    })
    // npm passes its own config to node-gyp as npm_config_* variables, which win over the command
    // line: a user's nodedir would point node-gyp at the machine's Node headers.
    const env = { ...process.env, npm_config_nodedir: nodedir }
    await run("node-gyp", ["rebuild", "--release", `--nodedir=${nodedir}`, "--jobs=max"], {
      cwd: building,
      env
    })
    // another run may have put the same build in place meanwhile: keep that one
    try {
      renameSync(building, target)
    } catch (error) {
      if (!existsSync(join(target, "build", "Release", addons[0]))) throw error
      rmSync(building, { recursive: true, force: true })
    }
    console.log(
      `${name}: compiled for ${abi} (Node ${process.versions.node} headers) in ${((Date.now() - started) / 1000).toFixed(1)} s`
    )
  }
  for (const addon of addons) {
    const built = join(target, "build", "Release", addon)
    if (existsSync(built)) map[realpathSync(join(release, addon))] = built
  }
}
mkdirSync(cache, { recursive: true })
writeFileSync(join(cache, `${abi}.json`), JSON.stringify(map, null, 2) + "\n")
if (Object.keys(map).length === 0) console.log(`no addon needs compiling for ${abi}`)
