// Registers hooks.mjs when the variant replaces the domain's clock or ids.
import process from "node:process"
import { register } from "node:module"

if (process.env.SWEEP_CLOCK || process.env.SWEEP_IDS) register("./hooks.mjs", import.meta.url)
