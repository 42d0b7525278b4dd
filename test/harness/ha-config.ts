import { join } from "node:path";

// The configuration files of the loopback HA cluster (docs/high-availability.md):
// one etcd member, two PostgreSQL members under Patroni, HAProxy in front.
// Plain functions of the ports and directories, so the settings that matter
// are in one place and a reader can compare them with the doc.

export const MEMBERS = ["pg1", "pg2"] as const;
export type MemberName = (typeof MEMBERS)[number];

export interface HaPorts {
  etcdClient: number;
  etcdPeer: number;
  /** HAProxy: always the leader (Patroni's /primary health check) */
  leader: number;
  /** HAProxy: the replicas (/replica) */
  replicas: number;
  postgres: Record<MemberName, number>;
  /** each member's Patroni REST API */
  rest: Record<MemberName, number>;
}

export const SCOPE = "bc-ha";
export const DATABASE = "bc";

/**
 * Patroni's timings: a lost leader's key expires after `ttl` seconds and the
 * sync standby takes over on its next loop. Patroni needs
 * loop_wait + 2 × retry_timeout <= ttl; the defaults (30/10/10) would make a
 * failover take 30–40 s.
 */
export const PATRONI_TIMINGS = { ttl: 10, loop_wait: 2, retry_timeout: 3 } as const;

/** Patroni's configuration (YAML; JSON is YAML) for one member. */
export function patroniConfig(options: { name: MemberName; ports: HaPorts; memberDir: string; binDir: string }): string {
  const { name, ports, memberDir, binDir } = options;
  const trustLoopback = ["local all all trust", "host all all 127.0.0.1/32 trust", "host replication replicator 127.0.0.1/32 trust"];
  const config = {
    scope: SCOPE,
    name,
    log: { level: "INFO" },
    restapi: { listen: `127.0.0.1:${ports.rest[name]}`, connect_address: `127.0.0.1:${ports.rest[name]}` },
    etcd3: { hosts: [`127.0.0.1:${ports.etcdClient}`] },
    bootstrap: {
      dcs: {
        ...PATRONI_TIMINGS,
        maximum_lag_on_failover: 1_048_576,
        // an acknowledged COMMIT is on both members; only the sync standby may be promoted
        synchronous_mode: true,
        // with one member down the other keeps taking writes alone (docs: "Settings that matter")
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          parameters: { wal_log_hints: "on", max_wal_senders: 10, max_replication_slots: 10, hot_standby: "on", max_connections: 300 },
        },
      },
      initdb: [{ encoding: "UTF8" }, { locale: "C" }],
    },
    postgresql: {
      listen: `127.0.0.1:${ports.postgres[name]}`,
      connect_address: `127.0.0.1:${ports.postgres[name]}`,
      data_dir: join(memberDir, "data"),
      bin_dir: binDir,
      pgpass: join(memberDir, "pgpass"),
      pg_hba: trustLoopback,
      authentication: {
        superuser: { username: "postgres" },
        replication: { username: "replicator" },
        rewind: { username: "postgres" },
      },
      parameters: { unix_socket_directories: memberDir },
    },
  };
  return JSON.stringify(config, null, 2);
}

/**
 * HAProxy: TCP through to whichever member Patroni's REST API calls the
 * primary (leader port) or a replica (replica port). A check every second,
 * two failures mark a member down, and its sessions are closed then, so no
 * client keeps talking to a demoted primary.
 */
export function haproxyConfig(ports: HaPorts): string {
  const servers = (check: string) => [
    `  option httpchk GET ${check}`,
    "  http-check expect status 200",
    "  default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 1 on-marked-down shutdown-sessions",
    ...MEMBERS.map((name) => `  server ${name} 127.0.0.1:${ports.postgres[name]} maxconn 400 check port ${ports.rest[name]}`),
  ];
  return [
    "global",
    "  maxconn 2000",
    "defaults",
    "  mode tcp",
    "  timeout connect 2s",
    "  timeout client 30m",
    "  timeout server 30m",
    "  timeout check 2s",
    "listen leader",
    `  bind 127.0.0.1:${ports.leader}`,
    ...servers("/primary"),
    "listen replicas",
    `  bind 127.0.0.1:${ports.replicas}`,
    ...servers("/replica"),
    "",
  ].join("\n");
}

export function etcdArgs(ports: HaPorts, dataDir: string): string[] {
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  return [
    "--name=bc-ha",
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=bc-ha=${peer}`,
    "--initial-cluster-state=new",
  ];
}
