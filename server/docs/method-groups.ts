// What each group of published methods is, as its reference page opens
// (SPEC Part A's words for joinRequests, joinTokens and inventory).
export const METHOD_GROUPS: Record<string, string> = {
  joinRequests:
    "Join requests are the approval queue for joins an attestor deferred: a machine with placeholder hardware identifiers, a machine the " +
    "`discovery` attestor did not know, or a TPM whose endorsement key is on no allow-list. An approval admits exactly one join, which the " +
    "machine's retry with the same CSR consumes. A pool may require more than one approver (`approvalsRequired`): below the count an " +
    "approval is recorded and the request stays pending. The group is decided on `compute-pool/{poolId}` with the join-token actions.",
  joinTokens:
    "Single-purpose credentials that let a limited number of daemons join one pool for a limited time. The bearer form " +
    "`bcjt_<id>.<secret>` is returned once, when the token is created; the control plane stores only the SHA-256 of the secret. " +
    "Every method is decided on `compute-pool/{poolId}`.",
  events:
    "What the join requests and the administrators published: every transition writes its event in the same transaction (an outbox), " +
    "delivered to the tenant's webhooks at least once and read here by pool.",
  nodes: "The machines: the node daemon's join, which creates and consumes join requests, and the nodes it admits.",
  inventory:
    "A node's hardware and software inventory as the daemon reports it, kept as an append-only history of snapshots; a new snapshot is " +
    "stored each time the node's reported section set changes. Every method decides `compute:nodes:read` on `compute-node/{nodeId}` and " +
    "only answers for nodes the calling tenant owns.",
  discovery:
    "A site's discovered-machine inventory, which the `discovery` attestor checks: a machine made known is admitted at its next join; " +
    "requests already pending stay pending. Decided on `compute-site/{siteId}`; only tenant-wide grants reach a site.",
  tpmAllowList:
    "The tenant's TPM allow-list: endorsement keys, by the SHA-256 of their DER SubjectPublicKeyInfo, that the `tpm` attestor vouches " +
    "for. Decided on `compute-tenant/{tenantId}`.",
  tpmTrustStore:
    "The tenant's TPM trust store: manufacturer root certificates. A proven endorsement key whose `tpm.ekCertificate` chains to one " +
    "(RFC 5280 path validation at the time of the join) is allowed as if it were on the allow-list. Decided on `compute-tenant/{tenantId}`.",
  pools:
    "A pool's settings: how many distinct principals (users or service keys) must approve each of its join requests " +
    "(`approvalsRequired`, 1 to 5), its known boot states, and what its deciders hear by default and who hears of a request " +
    "left waiting (`notifyDefault`, `escalateAfterMinutes`, `escalationEmails`). Decided on `compute-pool/{poolId}` as `compute:pools:manage`, which only `tenant-admin` holds.",
  approvalRules:
    "A pool's approval rules: CEL expressions over the deferred request, its discovery entry and the time, run in order when a " +
    "request is deferred. A shadow rule records what it would do; the first enforce rule that matches approves, rejects or raises " +
    "the request's `approvalsRequired`, as principal `rule:<id>@<version>`. No rule approves a request deferred " +
    "`machine-already-joined` or `hostname-in-use`, one needing more than one approval, or what Part G forbids; an approve rule " +
    "past its `maxPerHour` leaves the request pending. Read with `compute:join-tokens:read`, changed with " +
    "`compute:approval-rules:manage` (`pool-admin`, `tenant-admin`), on `compute-pool/{poolId}`.",
  notifications:
    "What each person who may decide a pool hears of its join requests: at once, a digest every 15 minutes, hourly, or nothing. " +
    "Each user sets their own, per pool (a service key has no mailbox); a pool's default and its escalation are `pools/update`'s, " +
    "set by a `tenant-admin`.",
};

/** The order groups are listed in; a group the registry serves but this list lacks comes last. */
export const GROUP_ORDER = [
  "joinRequests",
  "joinTokens",
  "events",
  "nodes",
  "inventory",
  "discovery",
  "tpmAllowList",
  "tpmTrustStore",
  "pools",
  "approvalRules",
  "notifications",
];
