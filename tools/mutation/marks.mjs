// What the mutation run does not run in the reference server's source, beyond the modules
// stryker.config.mjs leaves out and the message texts the `message-text` ignorer finds: each entry
// is a reason and the places it covers, read by the `marked` ignorer (ignorers.mjs). A reason is
// `equivalent: <why no answer differs>` or `latitude <row>: <the choice>`, where the mutant takes
// the other choice of a row of decisions.md section 10 (its name in ContractRules.latitude), or one
// between the two.
//
// A place names its file (relative to packages/reference-server/src) and either
// - `<file> <scope>`: every mutant of a named declaration (a function, a constant, a property or
//   a method; `a.b` is `b` inside `a`), or
// - `<mutators> <file>[ <scope>]: <line>`: the mutants of those mutators whose code starts on a
//   line written so (spaces aside) inside the declaration (or anywhere in the file), as a
//   `Stryker disable next-line` directive leading that line would.
// A place that matches no code fails the census (`node tools/mutation/census.mjs`), so a place
// renamed or rewritten away is found before a run.

/** @type {ReadonlyArray<{ readonly reason: string, readonly places: ReadonlyArray<string> }>} */
export const marks = [
  {
    reason:
      "equivalent: a cache, a shortcut, a fast path or an order whose answer is the same (createdAt never changes, ids follow createdAt, no two are equal)",
    places: [
      "ArrowFunction,ConditionalExpression internal/collections.ts bySchema: names.find((name) => collections[name].schema === schema)",
      "ObjectLiteral internal/fixtures.ts knownIdsJson: Schema.encode(Schema.parseJson(KnownIds.KnownIds, { space: 2 }))(ids).pipe(Effect.orDie)",
      "internal/store.ts makeSql.put.writes.discard",
      "CallExpression internal/store.ts remember: sortKeys.set(object, key)",
      'StringLiteral internal/store.ts computeSortKey: if (typeof createdAt !== "string") return ""',
      'StringLiteral internal/store.ts computeSortKey: if (typeof t === "string") return ""',
      'StringLiteral internal/store.ts computeSortKey: return key.padStart(21, "0")',
      "ConditionalExpression,EqualityOperator internal/store.ts compareKeys: if (ka !== kb) return ka < kb ? -1 : 1",
      "ConditionalExpression,EqualityOperator internal/store.ts compareKeys: return ia < ib ? -1 : ia > ib ? 1 : 0",
      "BlockStatement,ConditionalExpression,EqualityOperator internal/store.ts makeMemory.modify: if (key === entry.key) {",
      "CallExpression,ObjectLiteral internal/store.ts makeMemory.modify: t.byId.set(id, { id, key, data: next })",
      "AssignmentOperator internal/store.ts makeMemory.size: for (const t of tables.values()) n += t.byId.size",
      "ObjectLiteral internal/store.ts makeSql.put.writes: const writes = Effect.forEach(objects, (o) => upsert(c, o), { discard: true })",
      "LogicalOperator internal/store.ts makeSql.size: Effect.map((rows) => Number(rows[0]?.n ?? 0)),",
      "ConditionalExpression internal/app.ts makeApp.writerOf: if (w === undefined) writers.set(keepSecrets, (w = makeWriter(state.emitDefaults, keepSecrets)))",
      "ConditionalExpression internal/app.ts makeApp.refuse: refusal.headers === undefined ? base : { ...base, ...refusal.headers },",
      "BlockStatement,ConditionalExpression,EqualityOperator internal/app.ts makeApp.prepare: if (route.validate !== NO_RULES) {",
      "ConditionalExpression,EqualityOperator internal/app.ts makeApp.finish: if (route.respond === AS_IS) return p.stages.writeSuccess(base, p.write(route.op, body))",
      "ConditionalExpression,EqualityOperator,LogicalOperator internal/app.ts makeApp.work.run: refusal.status === undefined && refusal.headers === undefined",
      'ObjectLiteral internal/faithful.ts faithfulStages.writeSuccess: response(200, { ...headers, "content-type": ContentType.JSON_MEDIA_TYPE }, body),',
      'ConditionalExpression,StringLiteral internal/handlers.ts makeList: if (search !== "") {',
      "ConditionalExpression,EqualityOperator internal/handlers.ts makeList: if (predicates.length > 0) items = items.filter((item) => predicates.every((p) => p(item)))",
      'ConditionalExpression,StringLiteral internal/latitudeProtocol.ts fromConnectGet.headers: ...(compression !== null && compression !== "identity"',
      'EqualityOperator internal/latitudeProtocol.ts compressedAnswer.bytes: const bytes = typeof out.body === "string" ? Buffer.from(out.body) : out.body',
      'StringLiteral internal/nodeAnswer.ts inputOf.url: url: incoming.url ?? "/",',
      'StringLiteral internal/nodeAnswer.ts methodOf: export const methodOf = (incoming: Http.IncomingMessage) => (incoming.method ?? "GET").toUpperCase()',
      'AssignmentOperator,StringLiteral internal/nodeAnswer.ts writeAnswer: headers["content-type"] ??= ContentType.JSON_MEDIA_TYPE',
      'ConditionalExpression,EqualityOperator internal/nodeAnswer.ts writeAnswer: if (length > 0) headers["content-length"] = String(length)',
      "ConditionalExpression internal/writer.ts makeWriter: if (op.wrapperKey === undefined && op.itemField === undefined)",
      'StringLiteral internal/writer.ts makeWriter: prefix = ","'
    ]
  },
  {
    reason:
      "equivalent: how the server makes its own errors and reads a request's first issue: a check of fields its own code writes typed, the stack trace limit put back after an error without a trace, Effect's parser reporting the first error by default; only an error's code and message are sent, the same",
    places: [
      "BooleanLiteral internal/connectError.ts make: return new Errors.ConnectError({ code, message, ...extra }, true)",
      "BlockStatement internal/connectError.ts make: } finally {",
      'ObjectLiteral internal/faithful.ts requestDecoder: decode ??= Decode.makeDecoder(op.request as Schema.Schema<Req, unknown>, { errors: "first" })'
    ]
  },
  {
    reason:
      "equivalent: body limit: a server's limit may be any size of at least 1 MiB, so no body a judge sends is over every faithful server's limit",
    places: [
      "internal/app.ts makeApp.work.run.contentLength",
      "ConditionalExpression,EqualityOperator internal/app.ts makeApp.work.run.body: contentLength > maxBodyBytes",
      'ConditionalExpression,EqualityOperator internal/latitudeProtocol.ts fromConnectGet.body: body: (max) => Effect.succeed(bytes.length > max ? "too-large" : bytes)',
      "AssignmentOperator internal/nodeAnswer.ts readNodeBody: size += chunk.length",
      "BlockStatement,ConditionalExpression,EqualityOperator internal/nodeAnswer.ts readNodeBody: if (size > maxBytes) {",
      "BooleanLiteral internal/nodeAnswer.ts readNodeBody: over = true"
    ]
  },
  {
    reason:
      "equivalent: ids, tokens, cursors and times no reader may rely on (ids are opaque, a cursor the server never wrote, a clock within the skew)",
    places: [
      "internal/clock.ts stamp.now",
      // Two stamps of one millisecond may be equal: a List orders ties by id (decisions.md section 3).
      "ArithmeticOperator internal/clock.ts stamp: lastMicros = Math.max(now, lastMicros + 1)",
      'ConditionalExpression,EqualityOperator,StringLiteral internal/clock.ts stamp: return micros === 0 ? iso : `${iso.slice(0, -1)}${String(micros).padStart(3, "0")}Z`',
      'ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral internal/cursor.ts decodeCursor: if (parsed.length !== 4 || parsed[0] !== "c1") return undefined',
      'MethodExpression internal/latitude.ts walkDigest: return Crypto.createHash("sha256").update(JSON.stringify(walk)).digest("base64url").slice(0, 16)',
      "internal/random.ts prng",
      "internal/random.ts encodeTime",
      "internal/random.ts ulid"
    ]
  },
  {
    reason:
      "equivalent: in-process: bodies and headers only a caller of the in-process client that is neither the runner nor the typed client sends",
    places: [
      'ConditionalExpression internal/inProcess.ts bodyBytes: case "Uint8Array":',
      'ConditionalExpression internal/inProcess.ts bodyBytes: case "Raw":',
      "ConditionalExpression internal/inProcess.ts bodyBytes: default:",
      'ConditionalExpression,EqualityOperator internal/inProcess.ts makeClient.contentType: const contentType = request.body._tag === "Empty" ? undefined : request.body.contentType',
      'ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral internal/inProcess.ts makeClient: if (contentType !== undefined && headers["content-type"] === undefined)',
      'StringLiteral internal/inProcess.ts makeClient: headers["content-type"] = contentType',
      'StringLiteral internal/inProcess.ts makeClient: headers["content-length"] = String(bytes.length)'
    ]
  },
  {
    reason:
      "equivalent: message texts and start errors the message-text ignorer does not find by their place",
    places: [
      "internal/store.ts message",
      "internal/store.ts SQLITE_PACKAGE",
      "internal/store.ts installSpec",
      "internal/store.ts importSqlite",
      "internal/store.ts isAddonMissing",
      "internal/store.ts layerSqlite.onSome.packageName",
      'StringLiteral internal/store.ts: export class SqliteUnavailableError extends Data.TaggedError("SqliteUnavailableError")<{',
      "StringLiteral internal/handlers.ts collectionOf: if (c === undefined) throw new Error(`no collection holds the objects of ${op.method}`)",
      "ConditionalExpression,EqualityOperator,MethodExpression,StringLiteral internal/latitude.ts truncate: const truncate = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n)}...` : s)",
      "internal/latitudeChecks.ts strictFilterTypes.kind"
    ]
  },
  {
    reason:
      "equivalent: plumbing no faithful run reaches (fault injection, the hooks of the switches and violations on, the request log, the close, Nodes without crypto.hash)",
    places: [
      "internal/app.ts makeApp.switches",
      "internal/app.ts makeApp.work.run.early",
      "ArrowFunction internal/app.ts makeApp.handle: Effect.tap((output) => state.onRequest(record(input, op, path, requestId, started, output)))",
      "BlockStatement internal/app.ts makeApp: for (const r of Latitude.records) {",
      "BlockStatement internal/compose.ts composeRoute: for (const h of hooks) {",
      "BlockStatement internal/compose.ts composeRoute: for (const stage of ROUTE_STAGES) {",
      "BlockStatement internal/compose.ts composeStages: for (const h of hooks) {",
      "BlockStatement internal/compose.ts composeStages: for (const stage of SERVER_STAGES) {",
      "BlockStatement internal/core.ts makeCore.running.setFaults: Effect.sync(() => {",
      'StringLiteral internal/faithful.ts sha256Streamed: const sha256Streamed = (s: string): Buffer => Crypto.createHash("sha256").update(s).digest()',
      'ArrowFunction internal/nodeAnswer.ts readNodeBody: incoming.once("error", (error) => resume(Effect.fail(error)))',
      'ConditionalExpression,StringLiteral internal/nodeAnswer.ts writeAnswer: if (closing) headers["connection"] = "close"',
      'CallExpression internal/nodeAnswer.ts answer: if (out._tag === "Drop") incoming.socket.destroy()'
    ]
  },
  {
    reason:
      "equivalent: what the documents leave unshown or free, or no request sends (the MDM `type`, ids and `spaceId` sent empty, fields no update carries, zero values written or left out, malformed timeouts)",
    places: [
      "ArrayDeclaration internal/collections.ts User.groupIds.default: groupIds: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),",
      'ConditionalExpression,MethodExpression,StringLiteral internal/fixtures.ts knownIdsOf.encryptionKeyIds: encryptionKeyIds: [...new Set(keyIds.filter((k) => k !== ""))]',
      "internal/app.ts makeApp.prepare.parsed",
      "internal/core.ts makeCore.state.emitDefaults",
      "internal/faithful.ts faithfulChecks.encodingCheck.run.headers",
      'ConditionalExpression,StringLiteral internal/faithful.ts authorized: if (key === "") return false',
      'BlockStatement,ConditionalExpression internal/faithful.ts faithfulChecks.timeoutCheck.run: if (Deadline.parseTimeout(input.headers[Deadline.TIMEOUT_HEADER])._tag === "Invalid") {',
      'ConditionalExpression,EqualityOperator,StringLiteral internal/handlers.ts fieldValue: if (key === "type") return item.mdmVendorA !== undefined ? "mdm_vendor_a" : ""',
      'ConditionalExpression,StringLiteral internal/handlers.ts fieldValue: return v === undefined || v === null ? "" : typeof v === "string" ? v : String(v)',
      'ConditionalExpression,StringLiteral internal/handlers.ts compareTimestamps: if (!key.endsWith("_at")) return undefined',
      "ConditionalExpression internal/handlers.ts filteringWith.store.all: name === c",
      'ConditionalExpression,StringLiteral internal/handlers.ts scopeOf: req[field] !== undefined && req[field] !== "" ? (item) => item[field] === req[field] : undefined',
      'ConditionalExpression,LogicalOperator,StringLiteral internal/handlers.ts makeUpdate.updated: if (k === "id" || value === undefined || !fields.has(k)) continue',
      'ConditionalExpression,EqualityOperator internal/handlers.ts makeUpdate.updated: if (type === "string" || type === "boolean" || type === "number") next[k] = value',
      'ConditionalExpression internal/handlers.ts makeUpdate.updated: if (fields.has("updatedAt")) next.updatedAt = ctx.stamp()',
      'StringLiteral internal/handlers.ts reveal: r === undefined ? "" : Redacted.value(r)',
      "ObjectLiteral internal/handlers.ts creates.CreateNativeUserIdentityLink: identity.user = { id: user.id, email: user.email, username: user.username }",
      "ObjectLiteral internal/handlers.ts creates.CreateNativeUserIdentityLink: identity.resourceHostname = { id: hostname.id, hostname: hostname.hostname }",
      'ConditionalExpression,StringLiteral internal/handlers.ts creates.CreateConnector: if (req.spaceId !== undefined && req.spaceId !== "") {',
      'StringLiteral internal/handlers.ts creates.CreateConnector.spaceId: spaceId: req.spaceId ?? "",',
      "ObjectLiteral internal/handlers.ts creates.CreateConnector: ...(space ? { space } : {}),",
      "ArrayDeclaration,BlockStatement internal/handlers.ts creates.CreateHumanUserPassword: for (const gid of (user.groupIds as ReadonlyArray<string> | undefined) ?? []) {",
      'BooleanLiteral,ConditionalExpression,EqualityOperator,LogicalOperator internal/latitudeChecks.ts isRecord: u !== null && typeof u === "object" && !Array.isArray(u)',
      'ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral internal/latitudeChecks.ts formats.decryptorUri: decryptorUri: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],',
      "internal/latitudeProtocol.ts emptyPageMeta.body",
      "internal/latitudeProtocol.ts fromConnectGet.headers.connect-protocol-version",
      'ObjectLiteral internal/latitudeProtocol.ts emptyPageMeta.listMetadata: const listMetadata = { after: "", before: "", ...meta }',
      "ObjectLiteral internal/latitudeProtocol.ts emptyPageMeta: return { ...out, body: JSON.stringify({ ...body, listMetadata }) }",
      'StringLiteral internal/latitudeProtocol.ts fromConnectGet.text: const text = message ?? ""',
      'ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral internal/latitudeProtocol.ts fromConnectGet.headers: ...(params.get("connect") === "v1" ? { "connect-protocol-version": "1" } : {})',
      "BooleanLiteral,ConditionalExpression internal/writer.ts makeWriter: if (value.length === 0 && !emitDefaults) continue"
    ]
  },
  {
    reason: "latitude body-before-auth: the row's other choice, or one between",
    places: [
      "internal/latitude.ts lastIssueDecode.last",
      "ObjectLiteral internal/latitude.ts lastIssueDecode.decode: const decode = ParseResult.decodeUnknownEither(op.request as Schema.Schema<Req, unknown>, {"
    ]
  },
  {
    reason: "latitude body-limit-1mib: the row's other choice, or one between",
    places: [
      'ConditionalExpression,EqualityOperator internal/inProcess.ts makeClient.out.body: body: (max) => Effect.succeed(bytes.length > max ? "too-large" : bytes)'
    ]
  },
  {
    reason: "latitude connect-get: the row's other choice, or one between",
    places: [
      "ConditionalExpression,MethodExpression internal/app.ts makeApp.handle.path: const path = q === -1 ? input.url : input.url.slice(0, q)",
      'ConditionalExpression internal/faithful.ts faithfulChecks.encodingCheck.run: Compression.parseContentEncoding(encoding)._tag !== "Identity"',
      "internal/latitudeProtocol.ts fromConnectGet.q",
      "internal/latitudeProtocol.ts fromConnectGet.path",
      "internal/latitudeProtocol.ts fromConnectGet.params",
      "internal/latitudeProtocol.ts fromConnectGet.encoding",
      "internal/latitudeProtocol.ts fromConnectGet.method",
      "internal/latitudeProtocol.ts fromConnectGet.headers.content-type",
      "internal/latitudeProtocol.ts connectGet.encoding",
      "ConditionalExpression,EqualityOperator,UnaryOperator internal/latitudeProtocol.ts fromConnectGet: if (q === -1) return undefined",
      'ConditionalExpression internal/latitudeProtocol.ts fromConnectGet: if (op === undefined || (op.kind !== "get" && op.kind !== "list")) return undefined',
      "ConditionalExpression,EqualityOperator internal/latitudeProtocol.ts fromConnectGet: if (encoding === null) return undefined",
      "ObjectLiteral internal/latitudeProtocol.ts fromConnectGet.headers: headers: {",
      "ConditionalExpression,EqualityOperator internal/latitudeProtocol.ts compressedAnswer: if (bytes.length < COMPRESS_FROM_BYTES) return out",
      'ConditionalExpression,EqualityOperator,StringLiteral internal/latitudeProtocol.ts connectGet.request: const request = (input.method === "GET" ? fromConnectGet(input) : undefined) ?? input',
      'StringLiteral internal/latitudeProtocol.ts connectGet: (out) => compressedAnswer(out, input.headers["accept-encoding"])'
    ]
  },
  {
    reason: "latitude cursor-bound: the row's other choice, or one between",
    places: [
      "ConditionalExpression,EqualityOperator,LogicalOperator internal/latitude.ts walkDigest.walk: filter === undefined || Filter.isEmpty(filter) ? null : filter,",
      'LogicalOperator,StringLiteral internal/latitude.ts walkDigest.walk: request.search ?? "",',
      'LogicalOperator,StringLiteral internal/latitude.ts walkDigest.walk: request.spaceId ?? "",',
      'ConditionalExpression,EqualityOperator,StringLiteral internal/latitude.ts walkDigest.walk: request.order === "desc" ? "desc" : "asc"',
      "BlockStatement,ConditionalExpression,UnaryOperator internal/latitude.ts cursorBound: if (dot === -1) {",
      "BlockStatement,ConditionalExpression internal/latitude.ts cursorBound: if (cursor.slice(dot + 1) !== walkDigest(request)) {"
    ]
  },
  {
    reason: "latitude empty-page-meta: the row's other choice, or one between",
    places: [
      "internal/latitudeProtocol.ts pathOf.q",
      "ConditionalExpression,EqualityOperator,MethodExpression,UnaryOperator internal/latitudeProtocol.ts pathOf: return q === -1 ? url : url.slice(0, q)",
      'ConditionalExpression,EqualityOperator internal/latitudeProtocol.ts emptyPageMeta: if (out._tag !== "Response" || out.status !== 200 || op === undefined) return out',
      "ConditionalExpression,EqualityOperator internal/latitudeProtocol.ts emptyPageMeta: if (body === undefined || (Array.isArray(items) && items.length > 0)) return out"
    ]
  },
  {
    reason: "latitude empty-protocol-bodies: the row's other choice, or one between",
    places: [
      "internal/latitudeProtocol.ts emptyProtocolBodies.headers.content-type",
      "internal/latitudeProtocol.ts emptyProtocolBodies.body",
      'ConditionalExpression,StringLiteral internal/latitudeProtocol.ts emptyProtocolBodies: out._tag === "Response" && (out.status === 405 || out.status === 415)'
    ]
  },
  {
    reason: "latitude identity-any-kind: the row's other choice, or one between",
    places: [
      'ConditionalExpression,EqualityOperator,StringLiteral internal/latitude.ts identityAnyKind: if (request[kindField] !== "resource_hostname") return handler(request, ctx)',
      "BlockStatement internal/latitude.ts identityAnyKind: for (const c of Collections.names) {",
      "ConditionalExpression internal/latitude.ts identityAnyKind: if ((yield* ctx.store.get(c, id)) === undefined) continue",
      'ConditionalExpression,EqualityOperator internal/latitude.ts identityAnyKind: if (c === "connectorHostnames") break',
      'ConditionalExpression,EqualityOperator,LogicalOperator internal/latitude.ts identityAnyKind.store.get: name === "connectorHostnames" && i === id',
      "ObjectLiteral internal/latitude.ts identityAnyKind.store.get: ? Effect.succeed({ id })"
    ]
  },
  {
    reason: "latitude parent-not-found: the row's other choice, or one between",
    places: [
      "BooleanLiteral internal/latitude.ts parentNotFound.parentCollection: parent?.required === true ? Collections.bySchema(parent.object) : undefined",
      "BlockStatement internal/latitude.ts parentNotFound: if (parent !== undefined && parentCollection !== undefined) {",
      "BlockStatement internal/latitude.ts parentNotFound: if (lookupKey !== undefined && op.wrapperKey !== undefined && c !== undefined) {"
    ]
  },
  {
    reason: "latitude rate-limit-headers: the row's other choice, or one between",
    places: [
      "internal/app.ts makeApp.handle.requestId",
      "internal/app.ts makeApp.handle.base",
      "ConditionalExpression,EqualityOperator internal/latitudeProtocol.ts rateLimitHeaders: if (now >= windowEnd) {",
      "ArithmeticOperator internal/latitudeProtocol.ts rateLimitHeaders: windowEnd = now - (now % RATE_WINDOW_SECONDS) + RATE_WINDOW_SECONDS",
      "UpdateOperator internal/latitudeProtocol.ts rateLimitHeaders: used++",
      "ArithmeticOperator internal/latitudeProtocol.ts rateLimitHeaders.headers: ...RateLimit.headers(RATE_LIMIT, RATE_LIMIT - used, windowEnd),"
    ]
  },
  {
    reason: "latitude reject-empty-filter: the row's other choice, or one between",
    places: [
      "ConditionalExpression internal/latitudeChecks.ts eachFilter: if (Filter.isEmpty(filter)) return onEmpty(path)",
      "ArrowFunction internal/latitudeChecks.ts filterCheck: (path) => onEmpty(path, issues)"
    ]
  },
  {
    reason: "latitude require-enums: the row's other choice, or one between",
    places: [
      "ConditionalExpression internal/latitudeChecks.ts requireEnums: if (request[field] === undefined)"
    ]
  },
  {
    reason: "latitude return-secrets: the row's other choice, or one between",
    places: [
      "internal/faithful.ts faithfulStages.returnSecrets",
      "ConditionalExpression internal/writer.ts withoutSecrets: if (!Secrets.fieldNames.has(k)) out[k] = withoutSecrets(v)"
    ]
  },
  {
    reason: "latitude space-empty-ignored: the row's other choice, or one between",
    places: [
      'ArrowFunction,BooleanLiteral,ConditionalExpression,EqualityOperator,MethodExpression,StringLiteral internal/latitudeChecks.ts emptyReferencesIgnored: if (!references.some((field) => request[field] === "")) return request',
      'ConditionalExpression,EqualityOperator,StringLiteral internal/latitudeChecks.ts emptyReferencesIgnored: for (const field of references) if (rest[field] === "") delete rest[field]'
    ]
  },
  {
    reason: "latitude strict-filter-types: the row's other choice, or one between",
    places: [
      'ConditionalExpression internal/latitudeChecks.ts booleanKeysOf: return (key) => typeof zero[snakeToCamel(key)] === "boolean"',
      "BlockStatement internal/latitudeChecks.ts strictFilterTypes: filterCheck(({ key, operator }, path, issues) => {",
      "ConditionalExpression,LogicalOperator internal/latitudeChecks.ts strictFilterTypes: kind !== undefined &&",
      'ConditionalExpression,LogicalOperator internal/latitudeChecks.ts strictFilterTypes: (STRING_OPERATORS.has(operator) || (kind === "a boolean" && ORDER_OPERATORS.has(operator)))',
      "BlockStatement internal/latitudeChecks.ts strictFilterTypes: ) {"
    ]
  },
  {
    reason: "latitude strict-formats, string-limits: the row's other choice, or one between",
    places: [
      "BlockStatement internal/latitudeChecks.ts eachString: ): void => {",
      "ArrayDeclaration,ArrowFunction internal/latitudeChecks.ts eachString: return value.forEach((x, i) => eachString(x, [...path, i], field, skip, f))",
      "BooleanLiteral,ConditionalExpression,LogicalOperator internal/latitudeChecks.ts eachString: if (!isRecord(value) || Redacted.isRedacted(value)) return",
      "ArrayDeclaration,BooleanLiteral,ConditionalExpression internal/latitudeChecks.ts eachString: if (!skip.has(k)) eachString(x, [...path, k], k, skip, f)"
    ]
  },
  {
    reason: "latitude strict-formats: the row's other choice, or one between",
    places: [
      'ConditionalExpression,LogicalOperator,StringLiteral internal/latitudeChecks.ts isHttpUrl: return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""',
      "ConditionalExpression,Regex internal/latitudeChecks.ts formats.schedule: (s) => /^(?:6|12|18|24)h$/.test(s) || FIVE_FIELD_CRON.test(s),",
      "Regex internal/latitudeChecks.ts formats.email: (s) => /^[^@]+@[^@]+$/.test(s),",
      'ConditionalExpression internal/latitudeChecks.ts formats.apiUrl: apiUrl: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],',
      'ArrayDeclaration,BlockStatement,StringLiteral internal/latitudeChecks.ts strictFormats: eachString(request, [], "", NOT_FORMATS, (s, path, field) => {'
    ]
  },
  {
    reason:
      "latitude strict-time-filter, strict-filter-types, filter-case-insensitive, reject-empty-filter: the row's other choice, or one between",
    places: [
      'StringLiteral internal/latitudeChecks.ts filteredCollection: ): CollectionName | undefined => (fields.has("filter") ? collectionOf(op) : undefined)'
    ]
  },
  {
    reason:
      "latitude strict-time-filter, strict-filter-types, reject-empty-filter: the row's other choice, or one between",
    places: [
      "BlockStatement internal/latitudeChecks.ts eachFilter: ): void => {",
      'ConditionalExpression,StringLiteral internal/latitudeChecks.ts eachFilter: if ("group" in filter && filter.group !== undefined)',
      "ArrowFunction internal/latitudeChecks.ts eachFilter: return filter.group.filters.forEach((f, i) =>",
      'ArrayDeclaration,StringLiteral internal/latitudeChecks.ts eachFilter: eachFilter(f, [...path, "group", "filters", i], onCondition, onEmpty)',
      "CallExpression internal/latitudeChecks.ts filterCheck: eachFilter(",
      'ArrayDeclaration,StringLiteral internal/latitudeChecks.ts filterCheck: ["filter"],'
    ]
  },
  {
    reason:
      "latitude strict-time-filter, strict-filter-types: the row's other choice, or one between",
    places: [
      'ArrayDeclaration,ConditionalExpression,StringLiteral internal/latitudeChecks.ts eachFilter: if ("field" in filter && filter.field !== undefined) onCondition(filter.field, [...path, "field"])',
      "ArrowFunction internal/latitudeChecks.ts filterCheck: (condition, path) => onCondition(condition, path, issues),"
    ]
  },
  {
    reason: "latitude strict-time-filter: the row's other choice, or one between",
    places: [
      "internal/latitudeChecks.ts strictTimeFilter.message",
      "BlockStatement internal/latitudeChecks.ts strictTimeFilter: export const strictTimeFilter: Validate = filterCheck(({ key, operator, value }, path, issues) => {",
      "ConditionalExpression internal/latitudeChecks.ts strictTimeFilter: isTimeKey(key) &&",
      'ConditionalExpression,StringLiteral internal/latitudeChecks.ts strictTimeFilter: typeof Timestamp.parse(value?.value ?? "") === "string"',
      "BlockStatement internal/latitudeChecks.ts strictTimeFilter: ) {",
      'StringLiteral internal/latitudeChecks.ts: path: [...path, "value", "value"],'
    ]
  },
  {
    reason: "latitude string-limits: the row's other choice, or one between",
    places: [
      'ArrayDeclaration,BlockStatement,StringLiteral internal/latitudeChecks.ts stringLimits: eachString(request, [], "", NOTHING, (s, path, field) => {',
      "ArrayDeclaration,BlockStatement,BooleanLiteral,ConditionalExpression,EqualityOperator,LogicalOperator internal/latitudeChecks.ts stringLimits: if (!UNLIMITED.has(field) && s.length > MAX_CHARACTERS && [...s].length > MAX_CHARACTERS) {",
      'ConditionalExpression,StringLiteral internal/latitudeChecks.ts stringLimits: if (CONTROL.test(MULTILINE.has(field) ? s.replace(LINE_BREAKS, "") : s))'
    ]
  },
  {
    reason: "latitude unique-names: the row's other choice, or one between",
    places: [
      "ArrowFunction,ConditionalExpression,MethodExpression internal/latitude.ts uniqueNames: objects.some((o) => o.name === request.name)"
    ]
  }
]
