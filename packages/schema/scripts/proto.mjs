/* global URL, console */
// Writes proto/core/v1/api.proto (the API as a proto3 file) from the built operation table and
// schemas, keeping the field numbers of the file as it was.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { FILE, render } from "../dist/internal/proto.js"

const target = new URL(`../proto/${FILE}`, import.meta.url)
mkdirSync(new URL(".", target), { recursive: true })
const text = render(undefined, existsSync(target) ? readFileSync(target, "utf8") : "")
writeFileSync(target, text)
const count = (re) => (text.match(re) ?? []).length
console.log(
  `proto/${FILE}: ${count(/^service /gm)} services, ${count(/^ {2}rpc /gm)} rpcs, ${count(/^message /gm)} messages`
)
