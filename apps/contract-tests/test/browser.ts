// Headless Chromium for the tests, from the project's own install: the Chromium that the
// `@sparticuz/chromium` package ships (unpacked to the temporary directory on first use), driven by
// `playwright-core`. No browser download, no apt step. When it cannot start, the test fails and
// says why: a browser test is never skipped.
import chromium from "@sparticuz/chromium"
import { type Browser, chromium as playwright } from "playwright-core"

/**
 * Flags of `@sparticuz/chromium` left out: its Lambda-oriented `--single-process` ends the browser
 * when its first context closes; the headless flag is set once, below.
 */
const LEFT_OUT = (flag: string) => flag === "--single-process" || flag.startsWith("--headless")

/** Flags that keep Chromium off the network it would reach for on its own (updates, sync, pings). */
const QUIET = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu"
]

/** Launches headless Chromium; fails with what was tried when it cannot. */
export const launch = async (): Promise<Browser> => {
  let executablePath: string
  try {
    executablePath = await chromium.executablePath()
  } catch (error) {
    throw new Error(
      `the Chromium of @sparticuz/chromium could not be unpacked (is \`pnpm install\` done?): ${String(error)}`
    )
  }
  try {
    return await playwright.launch({
      executablePath,
      args: [...chromium.args.filter((a) => !LEFT_OUT(a)), "--headless", ...QUIET]
    })
  } catch (error) {
    throw new Error(
      `headless Chromium (${executablePath}, from @sparticuz/chromium) did not start: ${String(error)}`
    )
  }
}
