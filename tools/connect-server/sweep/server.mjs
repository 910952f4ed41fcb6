// Starts one variant of the Connect-stack server (and its front): `node --import ./register.mjs
// server.mjs <variant> <fixtures file>`; prints `listening on <url>`. The variant's env must be
// set by the caller (run.mjs), as the module hooks read it before the server's modules load.
import process from "node:process"
import { writeFileSync } from "node:fs"
import { start } from "../dist/index.js"
import { startFront } from "./front.mjs"
import { variants } from "./variants.mjs"

const [name, fixtures] = process.argv.slice(2)
const variant = variants[name]
if (variant === undefined) throw new Error(`unknown variant ${name}`)
const options = { ...variant.server }
if (options.stack?.acceptCompression === "none")
  options.stack = { ...options.stack, acceptCompression: [] }
const server = await start(options)
writeFileSync(fixtures, JSON.stringify(server.knownIds))
const front = variant.front === undefined ? undefined : await startFront(server.url, variant.front)
process.stdout.write(`listening on ${front?.url ?? server.url}\n`)
