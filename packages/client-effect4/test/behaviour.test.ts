// Under the machine's Node only (scripts/node-lines): the client's logic over a fake HttpClient, pure Effect code.
// The clients' behaviour, written once as data in @data-access/client-behaviour, run on Effect 4:
// a fake HttpClient answers each case's replies and the TestClock moves until the call ends.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, it } from "@effect/vitest"
import { runCase } from "./harness.js"

Behaviour.testCases({ describe, effect: it.effect, live: it.live }, runCase)
