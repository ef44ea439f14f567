/**
 * The node's peer network: it listens on its staking port for other nodes, and a node started
 * with bootstrap peers follows the first it can reach.
 *
 * What is simulated (honestly): there is no consensus among validators. The node started
 * without bootstrap peers is the only producer: its chains accept what it is sent, as a
 * single node does. A follower never accepts a container of its own: it applies, in the
 * producer's acceptance order across the chains, each container the producer accepted,
 * re-executing and verifying it (`container-replay.ts`); transactions sent to a follower are
 * forwarded to the producer over the link and answered with the producer's answer, once the
 * follower has applied what the producer had accepted by then (so a client reads its own
 * writes on the node it wrote to). A container that fails verification stops the follower
 * (it reports unhealthy and why); a lost link is retried every second and resumes from what
 * the follower has.
 *
 * Peers are authenticated by their staking certificates: a bootstrap peer whose certificate
 * is not the node ID `--bootstrap-ids` names is refused; a peer of another network ID or
 * protocol version is refused by the node it connects to.
 */
import { createBlockFromRLP } from "@ethereumjs/block";
import { connect, createServer, type Server, type TLSSocket } from "node:tls";
import { bytesToHex, equalBytes, hexToBytes } from "../../encoding";
import { RpcError, RpcErrorCode, serverError } from "../../rpc";
import type { Dispatch } from "../../rpc/types";
import { nodeIdOf, type StakingIdentity } from "../staking";
import { decodeProposerBlock } from "../indexer/proposer-block";
import type { AcceptanceLog, LoggedContainer } from "./acceptance-log";
import { replayContainer, type ReplayTarget } from "./container-replay";
import { PEER_TIMEOUT_MS, PeerLink } from "./peer-link";
import { PEER_PROTOCOL_VERSION, type ContainerMessage, type Forward, type Hello, type PeerMessage } from "./protocol";

/** A node to bootstrap from: `host:port` of its staking port and its node ID. */
export interface BootstrapPeer {
  ip: string;
  nodeID: string;
}

/** A connected peer as `info.peers` lists it. */
export interface PeerInfo {
  ip: string;
  publicIP: string;
  nodeID: string;
  version: string;
  lastSent: string;
  lastReceived: string;
  observedUptime: string;
  benched: string[];
}

export interface PeerNetworkOptions {
  networkId: number;
  /** `nativekit/<version>`. */
  version: string;
  publicIp: string;
  stakingPort: number;
  bootstrap: readonly BootstrapPeer[];
  log: AcceptanceLog;
  target: ReplayTarget;
  /** The node's log. */
  report(level: "info" | "warn" | "error", line: string): void;
}

export interface PeerNetworkStart {
  httpUrl: string;
  identity: StakingIdentity;
  /** The node's routes: where forwarded requests are answered. */
  routes: Record<string, Dispatch>;
}

const RECONNECT_MS = 1000;
const FORWARD_TIMEOUT_MS = 30_000;
const APPLY_WAIT_MS = 10_000;
const LINK_WAIT_MS = 5_000;

export class PeerNetwork {
  private server: Server | undefined;
  private readonly links = new Set<PeerLink>();
  /** The followers served, and the function that stops serving each. */
  private readonly following = new Map<PeerLink, () => void>();
  private upstream: PeerLink | undefined;
  /** Why the follower stopped for good (a container refused), if it did. */
  private failure: string | undefined;
  /** Why the follower is not connected now, if it is not. */
  private linkProblem: string | undefined = "not connected yet";
  private bootstrapped: boolean;
  private bootstrapTarget = 0;
  private applying: Promise<void> = Promise.resolve();
  private readonly forwards = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  private nextRid = 1;
  /** Forwarded requests answered so far, and the producer's log length after the last one. */
  forwardsAnswered = 0;
  private forwardedAccepted = 0;
  private readonly lengthWaiters = new Set<{ length: number; resolve(): void }>();
  private readonly linkWaiters = new Set<() => void>();
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private started: PeerNetworkStart | undefined;

  constructor(private readonly options: PeerNetworkOptions) {
    this.bootstrapped = options.bootstrap.length === 0;
    if (this.producer) this.linkProblem = undefined;
    options.log.onAppend(() => this.appended());
  }

  /** A node without bootstrap peers produces; the others follow. */
  get producer(): boolean {
    return this.options.bootstrap.length === 0;
  }

  /** Listens on the staking port and, on a follower, connects to a bootstrap peer. */
  async start(start: PeerNetworkStart): Promise<void> {
    this.started = start;
    const { certificatePem, keyPem } = start.identity.tls;
    const server = createServer({ cert: certificatePem, key: keyPem, requestCert: true, rejectUnauthorized: false }, (socket) => this.accept(socket));
    server.on("tlsClientError", () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.options.stakingPort, this.options.publicIp, () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.server = server;
    if (!this.producer) this.connect();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    for (const link of [...this.links, ...(this.upstream === undefined ? [] : [this.upstream])]) link.close("node stopping");
    for (const { reject, timer } of this.forwards.values()) {
      clearTimeout(timer);
      reject(new Error("node stopping"));
    }
    this.forwards.clear();
    this.options.log.close();
    const server = this.server;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** `info.peers`: the connected peers (those of `nodeIDs` only, when given). */
  peers(nodeIDs: readonly string[] = []): PeerInfo[] {
    const wanted = new Set(nodeIDs);
    const all = [...this.links, ...(this.upstream?.hello === undefined || this.upstream.isClosed ? [] : [this.upstream])];
    return all
      .filter((link) => link.hello !== undefined && !link.isClosed && (wanted.size === 0 || wanted.has(link.nodeID)))
      .map((link) => ({
        ip: link.remoteAddress,
        publicIP: link.hello!.publicIP,
        nodeID: link.nodeID,
        version: link.hello!.version,
        lastSent: link.lastSent.toISOString(),
        lastReceived: link.lastReceived.toISOString(),
        // The peer has seen this node up for the whole connection.
        observedUptime: "100",
        benched: [],
      }));
  }

  /** Whether the node has caught up with its bootstrap peer's height at connection (a producer always has). */
  isBootstrapped(): boolean {
    return this.bootstrapped;
  }

  /** The health check of the peer link: throws while a follower is not following. */
  health(): Record<string, unknown> {
    const accepted = this.options.log.length;
    if (this.failure !== undefined) throw new Error(`stopped following: ${this.failure}`);
    if (!this.producer && this.linkProblem !== undefined) throw new Error(`not connected to a bootstrap peer (${this.linkProblem}); ${accepted} containers applied`);
    if (!this.bootstrapped) throw new Error(`bootstrapping: ${accepted} of ${this.bootstrapTarget} containers applied`);
    const following = this.producer ? {} : { following: this.upstream?.nodeID, peerAccepted: Math.max(this.bootstrapTarget, this.forwardedAccepted) };
    return { producer: this.producer, connectedPeers: this.peers().length, accepted, ...following };
  }

  /** A follower's answer to a request that changes state: the producer's answer (see the file's comment). */
  async forward(path: string, method: string, params: unknown): Promise<unknown> {
    if (this.failure !== undefined) throw serverError(`this node stopped following its producer (${this.failure}); send the request to the producer`);
    // A link being re-established (the producer restarting) is waited for a little.
    if (!this.connected()) await this.waitForLink(LINK_WAIT_MS);
    const link = this.upstream;
    if (link === undefined || link.hello === undefined || link.isClosed) {
      throw serverError(`this node forwards ${method} to the node it follows, and is not connected to it (${this.linkProblem ?? "connecting"}); try again shortly`);
    }
    const rid = this.nextRid++;
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forwards.delete(rid);
        reject(serverError(`the producer did not answer ${method} within ${FORWARD_TIMEOUT_MS} ms`));
      }, FORWARD_TIMEOUT_MS);
      this.forwards.set(rid, { resolve, reject, timer });
    });
    link.send({ type: "forward", rid, path, method, params });
    return answer;
  }

  /** Resolves once this node has applied what the producer had accepted when it answered the last forwarded request. */
  waitForForwarded(): Promise<void> {
    return this.waitForLength(this.forwardedAccepted, APPLY_WAIT_MS);
  }

  // ------------------------------------------------------------------ follower side

  private connect(): void {
    if (this.stopped || this.failure !== undefined || this.started === undefined) return;
    const bootstrap = this.options.bootstrap;
    const peer = bootstrap[this.attempt++ % bootstrap.length]!;
    const { certificatePem, keyPem } = this.started.identity.tls;
    const colon = peer.ip.lastIndexOf(":");
    const socket = connect({ host: peer.ip.slice(0, colon), port: Number(peer.ip.slice(colon + 1)), cert: certificatePem, key: keyPem, rejectUnauthorized: false, checkServerIdentity: () => undefined });
    const retry = (problem: string) => {
      if (this.linkProblem !== problem) this.options.report("warn", `peers: ${problem}`);
      this.linkProblem = problem;
      this.upstream = undefined;
      if (this.stopped || this.failure !== undefined) return;
      this.reconnectTimer = setTimeout(() => this.connect(), RECONNECT_MS);
      this.reconnectTimer.unref();
    };
    socket.once("error", (error) => retry(`cannot reach bootstrap peer ${peer.ip}: ${error.message}`));
    // A peer that accepts the connection but never answers (stopped with SIGSTOP) is tried again.
    socket.setTimeout(PEER_TIMEOUT_MS, () => socket.destroy(new Error(`no TLS handshake within ${PEER_TIMEOUT_MS} ms`)));
    socket.once("secureConnect", () => {
      socket.setTimeout(0);
      socket.removeAllListeners("error");
      const presented = nodeIdOf(new Uint8Array(socket.getPeerCertificate().raw));
      if (presented !== peer.nodeID) {
        socket.destroy();
        retry(`refused bootstrap peer ${peer.ip}: its certificate is ${presented}, --bootstrap-ids names ${peer.nodeID}`);
        return;
      }
      const link = new PeerLink(socket, presented, (l, message) => this.fromUpstream(l, message));
      this.upstream = link;
      link.onClose((reason) => {
        if (this.upstream !== link) return;
        // Whether the producer accepted what it had not answered yet is unknown: say so.
        for (const [rid, { reject, timer }] of this.forwards) {
          clearTimeout(timer);
          this.forwards.delete(rid);
          reject(serverError(`the link to the producer was lost before it answered (${reason}): the transaction may or may not have been accepted; look it up before sending it again`));
        }
        retry(`link to ${peer.nodeID} at ${peer.ip} lost: ${reason}`);
      });
      link.send(this.hello());
    });
  }

  private fromUpstream(link: PeerLink, message: PeerMessage): void {
    switch (message.type) {
      case "hello": {
        link.hello = message;
        this.linkProblem = undefined;
        this.options.report("info", `peers: following ${link.nodeID} at ${link.remoteAddress} (${message.accepted} containers accepted there, ${this.options.log.length} here)`);
        this.bootstrapTarget = Math.max(this.bootstrapTarget, message.accepted);
        this.appended();
        const from = this.options.log.length;
        link.send({ type: "follow", from, ...(from === 0 ? {} : { lastId: bytesToHex(this.options.log.entry(from - 1).id) }) });
        for (const waiter of [...this.linkWaiters]) waiter();
        return;
      }
      case "refused":
        link.close(`refused by ${link.nodeID}: ${message.reason}`);
        return;
      case "container": {
        this.applying = this.applying.then(() => this.apply(link, message));
        return;
      }
      case "forwarded": {
        const pending = this.forwards.get(message.rid);
        if (pending === undefined) return;
        this.forwards.delete(message.rid);
        clearTimeout(pending.timer);
        this.forwardedAccepted = Math.max(this.forwardedAccepted, message.accepted);
        this.forwardsAnswered++;
        if (message.error !== undefined) pending.reject(new RpcError(message.error.code, message.error.message, message.error.data));
        else pending.resolve(message.result);
        return;
      }
      default:
        return;
    }
  }

  private async apply(link: PeerLink, message: ContainerMessage): Promise<void> {
    if (this.failure !== undefined || link.isClosed) return;
    const log = this.options.log;
    if (message.seq < log.length) return;
    const fail = (why: string) => {
      this.failure = why;
      this.options.report("error", `peers: stopped following ${link.nodeID}: ${why}`);
      link.close(why);
    };
    if (message.seq > log.length) return fail(`container ${message.seq} arrived while this node has ${log.length}`);
    try {
      await replayContainer(this.options.target, {
        chain: message.chain,
        id: hexToBytes(message.id),
        bytes: hexToBytes(message.bytes),
        atomic: (message.atomic ?? []).map((tx) => hexToBytes(tx)),
      });
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
    const applied = log.length > message.seq ? log.entry(message.seq) : undefined;
    if (applied === undefined || applied.chain !== message.chain || !equalBytes(applied.id, hexToBytes(message.id))) {
      return fail(`applying ${message.chain} container ${message.id} (position ${message.seq}) gave ${applied === undefined ? "nothing" : `${applied.chain} container ${bytesToHex(applied.id)}`}`);
    }
  }

  /** After the log grew: bootstrapped yet? waiters done? */
  private appended(): void {
    const length = this.options.log.length;
    if (!this.bootstrapped && this.upstream?.hello !== undefined && length >= this.bootstrapTarget) {
      this.bootstrapped = true;
      this.options.report("info", `peers: bootstrapped (${length} containers)`);
    }
    for (const waiter of this.lengthWaiters) {
      if (length >= waiter.length) {
        this.lengthWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  private connected(): boolean {
    return this.upstream?.hello !== undefined && !this.upstream.isClosed;
  }

  private waitForLink(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.linkWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.linkWaiters.add(done);
    });
  }

  private waitForLength(length: number, timeoutMs: number): Promise<void> {
    if (this.options.log.length >= length) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter = { length, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.lengthWaiters.delete(waiter);
        resolve();
      }, timeoutMs);
      this.lengthWaiters.add(waiter);
    });
  }

  // ------------------------------------------------------------------ serving side (every node)

  private hello(): Hello {
    const { identity, httpUrl } = this.started!;
    const log = this.options.log;
    return {
      type: "hello",
      protocol: PEER_PROTOCOL_VERSION,
      nodeID: identity.nodeID,
      networkID: this.options.networkId,
      version: this.options.version,
      publicIP: `${this.options.publicIp}:${this.options.stakingPort}`,
      httpUrl,
      accepted: log.length,
      heights: log.heights(),
      genesis: this.genesis(),
      producer: this.producer,
    };
  }

  private genesis(): string {
    return this.options.target.engine.blockAt(0n)?.hash ?? "";
  }

  private accept(socket: TLSSocket): void {
    const raw = socket.getPeerCertificate()?.raw;
    if (raw === undefined) {
      socket.destroy();
      return;
    }
    const link = new PeerLink(socket, nodeIdOf(new Uint8Array(raw)), (l, message) => this.fromDownstream(l, message));
    link.onClose(() => {
      this.following.get(link)?.();
      this.following.delete(link);
      this.links.delete(link);
    });
  }

  private fromDownstream(link: PeerLink, message: PeerMessage): void {
    switch (message.type) {
      case "hello": {
        const refuse = (reason: string) => {
          this.options.report("warn", `peers: refused ${link.nodeID} at ${link.remoteAddress}: ${reason}`);
          link.send({ type: "refused", reason });
          setTimeout(() => link.close(reason), 100).unref();
        };
        if (message.protocol !== PEER_PROTOCOL_VERSION) return refuse(`peer protocol ${message.protocol}, this node speaks ${PEER_PROTOCOL_VERSION}`);
        if (message.networkID !== this.options.networkId) return refuse(`network ID ${message.networkID}, this node is on network ${this.options.networkId}`);
        if (message.genesis !== this.genesis()) return refuse(`its contract-chain genesis is ${message.genesis}, this node's ${this.genesis()}`);
        if (message.nodeID !== link.nodeID) return refuse(`it says it is ${message.nodeID}, its certificate is ${link.nodeID}`);
        link.hello = message;
        this.links.add(link);
        link.send(this.hello());
        this.options.report("info", `peers: ${link.nodeID} connected from ${link.remoteAddress}`);
        return;
      }
      case "follow": {
        if (link.hello === undefined) return;
        const log = this.options.log;
        if (message.from > log.length) return link.close(`it has ${message.from} containers, this node ${log.length}`);
        if (message.from > 0 && (message.lastId === undefined || bytesToHex(log.entry(message.from - 1).id) !== message.lastId)) {
          link.send({ type: "refused", reason: `its container ${message.from - 1} is not this node's: its chain differs` });
          return link.close("diverged");
        }
        this.following.get(link)?.();
        this.following.set(link, this.serveFrom(link, message.from));
        return;
      }
      case "forward":
        if (link.hello !== undefined) void this.answer(link, message);
        return;
      default:
        return;
    }
  }

  /** Sends every container from `from`, then each new one; returns the function that stops it. */
  private serveFrom(link: PeerLink, from: number): () => void {
    const log = this.options.log;
    const send = (entry: LoggedContainer) => {
      try {
        link.send(this.containerMessage(entry));
      } catch (error) {
        // The follower would wait forever for it: close the link (it reconnects and asks again).
        const why = `container ${entry.seq} could not be sent: ${error instanceof Error ? error.message : String(error)}`;
        this.options.report("error", `peers: ${why}`);
        link.close(why);
      }
    };
    for (let seq = from; seq < log.length && !link.isClosed; seq++) send(log.entry(seq));
    return log.onAppend(send);
  }

  private containerMessage(entry: LoggedContainer): ContainerMessage {
    const message: ContainerMessage = { type: "container", seq: entry.seq, chain: entry.chain, id: bytesToHex(entry.id), bytes: bytesToHex(entry.bytes) };
    if (entry.chain !== "C") return message;
    const atomic = this.atomicTxsOf(entry.bytes);
    return atomic.length === 0 ? message : { ...message, atomic };
  }

  /** The signed atomic transactions of a contract-chain container's block (its RLP does not carry them). */
  private atomicTxsOf(bytes: Uint8Array): string[] {
    const { engine, atomics } = this.options.target;
    let rlp = bytes;
    try {
      rlp = decodeProposerBlock(bytes).block;
    } catch {
      // The raw RLP block.
    }
    const hash = bytesToHex(createBlockFromRLP(rlp, { common: engine.common, setHardfork: false }).hash());
    const record = engine.chain.byHashOrUndefined(hash);
    return (record?.atomicTransactions ?? []).map((id) => {
      const bytes = atomics.signedBytes(id);
      if (bytes === undefined) throw new Error(`atomic transaction ${id} of block ${hash} is unknown`);
      return bytesToHex(bytes);
    });
  }

  private async answer(link: PeerLink, request: Forward): Promise<void> {
    const dispatch = this.started?.routes[request.path];
    let reply: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (dispatch === undefined) {
      reply = { error: { code: RpcErrorCode.MethodNotFound, message: `no API at ${request.path}` } };
    } else {
      try {
        reply = { result: (await dispatch(request.method, request.params)) ?? null };
      } catch (error) {
        reply = { error: error instanceof RpcError ? error.toJSON() : { code: RpcErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) } };
      }
    }
    // A block answered before it is sealed (no data directory) is in the log once the engine's queue has run.
    await this.options.target.engine.serialize(() => Promise.resolve());
    link.send({ type: "forwarded", rid: request.rid, ...reply, accepted: this.options.log.length });
  }
}

