/**
 * The built-in demo data set: every object type, deterministic, realistic names, enough
 * satellites, native users and MDM integrations to need several pages at limit 100.
 *
 * @internal
 */
import type { CollectionName, Json } from "./collections.js"
import { collections } from "./collections.js"
import { makeId, prng } from "./random.js"

type Obj = Record<string, unknown>

/** Builds the demo data set in wire form. The same seed gives the same data. */
export const demoData = (
  seed = 20250106
): ReadonlyArray<readonly [CollectionName, ReadonlyArray<Json>]> => {
  const random = prng(seed)
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1))
  const hex = (n: number) =>
    Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(random() * 16)]).join("")
  // Everything was created between 2025-01-06 and about 2025-09; `updatedAt` a little later.
  let clock = Date.UTC(2025, 0, 6, 9, 0, 0)
  const stamp = () => {
    clock += int(60_000, 3_600_000) + int(0, 999)
    const createdAt = new Date(clock).toISOString()
    const updatedAt = new Date(clock + int(0, 86_400_000)).toISOString()
    return { createdAt, updatedAt, millis: clock }
  }
  const out = new Map<CollectionName, Array<Obj>>()
  const add = <C extends CollectionName>(
    c: C,
    make: (id: string, t: ReturnType<typeof stamp>) => Obj
  ): Obj => {
    const t = stamp()
    const o = make(makeId(collections[c].prefix, t.millis, random), t)
    const list = out.get(c) ?? []
    list.push(o)
    out.set(c, list)
    return o
  }

  const spaces = [
    ["production", "Production workloads of every region"],
    ["staging", "Pre-release copies of production data stores"],
    ["analytics", "Warehouses and BI sources"],
    ["sandbox", "Short-lived experiments"]
  ].map(([name, description], i) =>
    add("spaces", (id, t) => ({
      id,
      name,
      description,
      terminationProtection: i === 0,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  const groups = [
    ["data-engineering", "Owns the pipelines"],
    ["platform-admins", "Administers the platform"],
    ["analysts", "Read access to the warehouses"],
    ["security", "Security operations"],
    ["sre", "Site reliability engineering"],
    ["finance", "Finance and controlling"]
  ].map(([name, description], i) =>
    add("groups", (id, t) => ({
      id,
      name,
      description,
      dsyncGroupId: `dsync_grp_${hex(12)}`,
      terminationProtection: i === 1,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  const people = [
    ["ada.lovelace", "Ada Lovelace"],
    ["grace.hopper", "Grace Hopper"],
    ["alan.turing", "Alan Turing"],
    ["katherine.johnson", "Katherine Johnson"],
    ["edsger.dijkstra", "Edsger Dijkstra"],
    ["barbara.liskov", "Barbara Liskov"]
  ]
  people.forEach(([username], i) =>
    add("users", (id, t) => ({
      id,
      email: `${username}@example.com`,
      username,
      groupIds: [
        String(groups[i % groups.length]!.id),
        String(groups[(i + 2) % groups.length]!.id)
      ],
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  const techPorts: ReadonlyArray<readonly [string, number, string]> = [
    ["postgres", 5432, "orders-db"],
    ["mysql", 3306, "billing-db"],
    ["mongodb", 27017, "catalog-docs"],
    ["snowflake", 443, "warehouse"],
    ["ssh", 22, "bastion"],
    ["kubernetes", 6443, "k8s-api"],
    ["redis", 6379, "session-cache"],
    ["clickhouse", 8123, "events-olap"],
    ["http", 443, "internal-api"],
    ["s3", 443, "raw-landing"],
    ["bigquery", 443, "marketing-bq"],
    ["grpc", 8443, "inventory-grpc"],
    ["mcp", 443, "assistant-tools"],
    ["web", 443, "admin-console"]
  ]
  const resources = techPorts.map(([technology, port, base], i) => {
    const space = spaces[i % spaces.length]!
    const env = String(space.name)
    return add("resources", (id, t) => ({
      id,
      name: `${base}-${env}`,
      technology,
      hostname: `${base}.${env}.internal.example.com`,
      port,
      environment: env,
      terminationProtection: i % 3 === 0,
      spaceId: space.id,
      space,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      provider: i % 4 === 0 ? "aws-ec2" : i % 4 === 1 ? "aws-ecs" : ""
    }))
  })

  const roles = ["app", "readonly", "reporting", "etl", "migration", "backup", "audit", "svc"]
  const nativeUsers: Array<Obj> = []
  resources.forEach((resource, r) => {
    const count = r === 0 ? 120 : 3
    for (let i = 0; i < count; i++) {
      const username = `${roles[i % roles.length]}_${String(i + 1).padStart(3, "0")}`
      const withSecret = i < 5
      nativeUsers.push(
        add("nativeUsers", (id, t) => ({
          basic: {
            username,
            usernameIsEnv: false,
            password: withSecret ? `demo-pw-${hex(16)}` : "",
            passwordIsEnv: !withSecret && i % 2 === 0
          },
          id,
          resourceId: resource.id,
          username,
          secret: i === 0 ? `demo-v1-secret-${hex(12)}` : "",
          useAsDefault: i === 0,
          terminationProtection: i % 10 === 0,
          createdAt: t.createdAt,
          updatedAt: t.updatedAt
        }))
      )
    }
  })

  const connectors = ["edge-eu-west-1", "edge-us-east-1", "edge-ap-southeast-2"].map((name, i) => {
    const space = spaces[i % 2]!
    return add("connectors", (id, t) => ({
      id,
      name,
      terminationProtection: i === 0,
      spaceId: space.id,
      space,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  })

  const hostnameStates: ReadonlyArray<readonly [string, string]> = [
    ["issued", "success"],
    ["issuing", "pending"],
    ["none", "none"],
    ["issued", "failed"]
  ]
  hostnameStates.forEach(([tls, dns], i) => {
    const connector = connectors[i % connectors.length]!
    add("connectorHostnames", (id, t) => ({
      id,
      hostname: `db${i + 1}.${String(connector.name)}.access.example.com`,
      managedTls: i % 2 === 0,
      connector,
      terminationProtection: false,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      tlsCertificateStatus: tls,
      dnsRecord: `CNAME ${String(connector.name)}.lb.example.net`,
      dnsRecordStatus: dns
    }))
  })

  ;[
    ["postgres-listener", 15432],
    ["mysql-listener", 13306],
    ["ssh-listener", 2222]
  ].forEach(([name, port], i) => {
    const connector = connectors[i % connectors.length]!
    const t0 = stamp()
    add("connectorListenerLinks", (id, t) => ({
      id,
      listener: {
        id: makeId("listener", t0.millis, random),
        name,
        port,
        terminationProtection: false,
        createdAt: t0.createdAt,
        updatedAt: t0.updatedAt,
        connector
      },
      connector,
      terminationProtection: i === 0,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  })

  ;[0, 1, 2, 4].forEach((r, i) => {
    const resource = resources[r]!
    const t0 = stamp()
    add("sidecarResourceLinks", (id) => ({
      id,
      sidecar: {
        id: makeId("sidecar", t0.millis, random),
        name: `sidecar-${String(resource.technology)}-${i + 1}`,
        technology: resource.technology,
        hostname: `sidecar-${i + 1}.mesh.internal.example.com`,
        terminationProtection: false,
        deployed: i !== 3,
        createdAt: t0.createdAt,
        updatedAt: t0.updatedAt
      },
      resource,
      port: 10_000 + i,
      terminationProtection: i === 0
    }))
  })

  const regions = [
    "eu-west-1",
    "eu-central-1",
    "us-east-1",
    "us-west-2",
    "ap-southeast-2",
    "sa-east-1"
  ]
  const kinds: ReadonlyArray<readonly [string, string]> = [
    ["data_discovery", "discovery"],
    ["data_classifier", "classifier"],
    ["policy_data_loader", "loader"],
    ["ai", "ai-gateway"]
  ]
  for (let i = 0; i < 230; i++) {
    const [satelliteType, word] = kinds[i % kinds.length]!
    const region = regions[Math.floor(i / kinds.length) % regions.length]!
    const space = spaces[i % spaces.length]!
    add("satellites", (id, t) => ({
      id,
      name: `${word}-${region}-${String(i + 1).padStart(3, "0")}`,
      terminationProtection: i % 7 === 0,
      spaceId: i % 11 === 10 ? "" : space.id,
      ...(i % 11 === 10 ? {} : { space }),
      satelliteType,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  }

  connectors.forEach((connector, i) =>
    add("policyStageConfigurations", (id, t) => ({
      id,
      connectorId: connector.id,
      orgId: "org_acme",
      disableSessionPolicyEvaluation: i === 1,
      disableRequestPolicyEvaluation: false,
      disableResponsePolicyEvaluation: i === 2,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  ;[
    ["Catalog (production)", "bidirectional"],
    ["Catalog (analytics)", "catalog_to_platform"]
  ].forEach(([name, syncDirection]) =>
    add("dataCatalogIntegrations", (id, t) => ({
      catalogVendorA: {
        webhookSecret: `demo-whsec-${hex(24)}`,
        apiKey: `demo-catalog-key-${hex(24)}`,
        generalizedMetadataServiceUrl: "https://catalog.example.com/api/gms",
        syncedEntities: ["tags", "data_labels"]
      },
      id,
      name,
      syncDirection,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  const cities = [
    "berlin",
    "london",
    "paris",
    "madrid",
    "new-york",
    "toronto",
    "sydney",
    "tokyo",
    "sao-paulo",
    "mumbai"
  ]
  for (let i = 0; i < 210; i++) {
    add("mdmIntegrations", (id, t) => ({
      mdmVendorA: {
        apiKey: i < 10 ? `demo-mdm-key-${hex(20)}` : "",
        apiUrl: `https://mdm-${cities[i % cities.length]}.example.com/api`
      },
      id,
      name: `Fleet ${cities[i % cities.length]} ${String(i + 1).padStart(3, "0")}`,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  }

  ;["Revenue dashboards", "Ops reporting"].forEach((name, i) =>
    add("biIntegrations", (id, t) => ({
      biVendorA: { apiKey: `demo-bi-key-${hex(16)}`, apiSecret: `demo-bi-secret-${hex(24)}` },
      id,
      name,
      createdAt: t.createdAt,
      linkedDbUserId: String(nativeUsers[i]!.id),
      sync: i === 0
    }))
  )

  const sharedKeyId = `arn:aws:kms:eu-west-1:123456789012:key/${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`
  ;[
    ["aws-kms", sharedKeyId, "rsaes_oaep_sha256"],
    ["aws-kms", sharedKeyId, "aes_random"],
    [
      "gcp-kms",
      `projects/acme/locations/europe-west1/keyRings/logs/cryptoKeys/${hex(6)}`,
      "aes_deterministic"
    ],
    [
      "azure-key-vault",
      `https://acme-logs.vault.azure.net/keys/logs/${hex(32)}`,
      "rsaes_oaep_sha256"
    ]
  ].forEach(([provider, keyId, algorithm], i) =>
    add("encryptionKeys", (id, t) => ({
      id,
      provider,
      keyId,
      algorithm,
      decryptorUri: i === 3 ? "" : `https://decryptor.example.com/v1/${provider}`,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  ;[
    ["Failed logins (24h)", "event.type:login AND outcome:failure", 86400],
    ["Slow queries", "duration_ms > 5000", 3600],
    ["Denied by policy", "decision:deny", 604800],
    ["Exports over 1 GB", "bytes_out > 1073741824", 86400],
    ["Admin sessions", "role:admin", 43200],
    ["Schema changes", "statement_type:ddl", 2592000]
  ].forEach(([name, query, seconds], i) =>
    add("logQueries", (id) => ({
      id,
      name,
      createdBy: String(people[i % people.length]![0]) + "@example.com",
      query: {
        query,
        filters: [{ name: "resource", values: [String(resources[i % resources.length]!.name)] }],
        relativeTime: String(seconds),
        histogramGroupByFields: i % 2 === 0 ? ["resource", "user"] : [],
        metricAggregation: { field: "duration_ms", aggType: "value_count" }
      }
    }))
  )

  ;[
    ["Bulk export detection", "bulk_export", "active"],
    ["Off-hours access", "off_hours_access", "active"],
    ["Privilege escalation", "privilege_escalation", "draft"],
    ["Dormant account use", "dormant_account", "active"],
    ["Unusual geography", "impossible_travel", "draft"]
  ].forEach(([name, scenario, status]) =>
    add("scenarioMonitors", (id, t) => ({
      id,
      name,
      scenario,
      status,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  add("policyDataLoaders", (id, t) => ({
    id,
    name: "hr-attributes",
    description: "Loads department and manager attributes from the HR system",
    key: "hr",
    workerRuntime: "python3.11",
    workerCode: "def handler(event):\n    return fetch_hr_attributes()\n",
    workerSchedule: "0 */30 * * * *",
    status: "active",
    terminationProtection: true,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt
  }))

  ;[
    ["mask-pii", "Mask personal data for analysts", "active"],
    ["block-prod-ddl", "Block DDL on production outside change windows", "dry-run"],
    ["allow-oncall", "Grant on-call engineers temporary access", "draft"]
  ].forEach(([name, description, status]) =>
    add("permissions", (id, t) => ({
      id,
      name,
      description,
      code: `package platform.${String(name).replace(/-/g, "_")}\n\ndefault allow := false\n`,
      status,
      terminationProtection: false,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt
    }))
  )

  add("dataDiscoveryConfigurations", (id, t) => ({
    id,
    resourceId: resources[0]!.id,
    nativeUserId: nativeUsers[0]!.id,
    database: "orders",
    schedule: "24h",
    deletionPolicy: "mark_for_deletion",
    path: null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt
  }))

  add("nativeUserIdentityLinks", (id, t) => ({
    id,
    group: groups[2],
    nativeUser: nativeUsers[1],
    terminationProtection: false,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt
  }))

  return [...out.entries()]
}
