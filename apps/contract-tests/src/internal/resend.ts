/**
 * How many times the runner and the proxy send a request again when its connection broke before
 * any answer came: a faithful server closes an idle keep-alive connection when it chooses, and a
 * request sent on it as it closes breaks the same way (the busier the machine, the more often).
 * A request that breaks on every connection is still a server's broken connection.
 */
export const RESENDS_AFTER_BREAK = 2
