/** What every call sends: headers, deadline header, URL and body. */
import { API_KEY, type Case, USER_AGENT } from "../model.js"
import { getResource, ok } from "./shared.js"

export const headers: ReadonlyArray<Case> = [
  {
    name: "every call sends the API key, content type, protocol version, user agent, deadline and body",
    call: { ...getResource, timeout: 5000, attemptTimeout: 10_000 },
    replies: [ok],
    outcome: { _tag: "Success", value: { resource: { port: 5432 } } },
    sent: {
      count: 1,
      url: "http://fake.invalid/core.v1.ResourceService/GetResource",
      headers: [
        {
          "x-api-key": API_KEY,
          "content-type": "application/json",
          "connect-protocol-version": "1",
          "user-agent": USER_AGENT,
          "connect-timeout-ms": "5000"
        }
      ],
      bodies: [{ id: "resource_1" }]
    }
  },
  {
    name: "the deadline header is the attempt timeout when it is shorter than the budget",
    call: { ...getResource, timeout: 30_000, attemptTimeout: 2000 },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, headers: [{ "connect-timeout-ms": "2000" }] }
  },
  {
    name: "without a finite deadline no Connect-Timeout-Ms is sent",
    call: { ...getResource, timeout: Infinity, attemptTimeout: Infinity },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, headers: [{ "connect-timeout-ms": undefined }] }
  },
  {
    name: "a deadline longer than 10 digits of milliseconds is sent as the longest",
    call: { ...getResource, timeout: Infinity, attemptTimeout: 400 * 86_400_000 },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, headers: [{ "connect-timeout-ms": "9999999999" }] }
  },
  {
    name: "a trailing slash on the base URL is harmless",
    call: { ...getResource, baseUrl: "http://fake.invalid/" },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, url: "http://fake.invalid/core.v1.ResourceService/GetResource" }
  },
  {
    name: "a base URL that is not an absolute http(s) URL is a configuration error and nothing is sent",
    call: { ...getResource, baseUrl: "not a url" },
    replies: [ok],
    outcome: { _tag: "Failure", error: {}, says: "baseUrl" },
    sent: { count: 0 }
  },
  {
    name: "a call is a description: each run sends its own request with its own deadline",
    call: { ...getResource, timeout: 3000 },
    replies: [ok],
    runs: { times: 2, gapMillis: 1000 },
    outcome: { _tag: "Success" },
    sent: {
      count: 2,
      bodies: [{ id: "resource_1" }, { id: "resource_1" }],
      headers: [{ "connect-timeout-ms": "3000" }, { "connect-timeout-ms": "3000" }],
      gaps: [[1000, 1000]]
    }
  }
]
