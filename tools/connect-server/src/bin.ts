/**
 * Starts the Connect-stack server: `node dist/bin.js [--port N] [--host H]`; prints its URL and
 * stops on SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util"
import { start } from "./server.js"

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" }
  }
})
const server = await start({ port: Number(values.port), host: values.host })
process.stdout.write(`listening on ${server.url}\n`)
const stop = () => void server.close().then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
