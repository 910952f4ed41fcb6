/* global process */
// Preloaded (NODE_OPTIONS=--import) into the test processes of another Node line: when an addon
// that the install compiled for the machine's Node is loaded, loads its build for this Node's ABI
// instead (compiled by rebuild-addons.mjs from the same sources; the map is <cache>/<abi>.json).
// Addons without such a build load unchanged, and fail as they would for a user if their ABI differs.
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { join } from "node:path"

const cache = process.env.DATA_ACCESS_ADDON_CACHE
const file =
  cache === undefined
    ? undefined
    : join(cache, `node-v${process.versions.modules}-${process.platform}-${process.arch}.json`)
const builds = file !== undefined && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {}
if (Object.keys(builds).length > 0) {
  const dlopen = process.dlopen
  process.dlopen = function (module, filename, ...rest) {
    let real = filename
    try {
      real = realpathSync(filename)
    } catch {
      // not a file: dlopen reports it
    }
    return dlopen.call(this, module, builds[real] ?? filename, ...rest)
  }
}
