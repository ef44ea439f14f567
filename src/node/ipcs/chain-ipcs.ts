import * as path from "node:path";
import type { AcceptanceStream, NodeAcceptance } from "../acceptance";
import type { ChainEntry } from "../../network/chains";
import { FramedSocketServer, type FramedSocketOptions } from "./framed-socket";

/**
 * The chains the node publishes over IPC (avalanchego `ipcs/chainipc.go`): each published chain
 * has two sockets, `<dir>/<networkID>-<chainID>-consensus` (accepted blocks) and
 * `…-decisions` (accepted transactions), fed from the node's acceptance streams.
 *
 * Publishing a chain twice answers the same sockets; unpublishing one that is not published does
 * nothing; `close` unpublishes everything (the sockets' files are removed).
 */
export interface PublishedChain {
  readonly chain: ChainEntry;
  readonly consensusURL: string;
  readonly decisionsURL: string;
}

export interface ChainIpcsOptions extends FramedSocketOptions {
  /** Directory of the socket files (the reference's `--ipcs-path`, default /tmp). */
  directory: string;
  networkId: number;
  acceptance: NodeAcceptance;
}

/** The reference's default `--ipcs-path`. */
export const DEFAULT_IPCS_PATH = "/tmp";

interface Publication extends PublishedChain {
  readonly sockets: readonly FramedSocketServer[];
  readonly stop: () => void;
}

export class ChainIpcs {
  /** Published chains by cb58 ID, in publication order. */
  private readonly published = new Map<string, Promise<Publication>>();

  constructor(private readonly options: ChainIpcsOptions) {}

  /** The socket path of one stream of a chain. */
  socketPath(chain: ChainEntry, stream: AcceptanceStream): string {
    return path.join(this.options.directory, `${this.options.networkId}-${chain.id}-${stream}`);
  }

  /** Starts publishing `chain` (or returns its sockets when it already is). */
  async publish(chain: ChainEntry): Promise<PublishedChain> {
    let publication = this.published.get(chain.id);
    if (publication === undefined) {
      publication = this.open(chain);
      this.published.set(chain.id, publication);
      publication.catch(() => this.published.delete(chain.id));
    }
    const { consensusURL, decisionsURL } = await publication;
    return { chain, consensusURL, decisionsURL };
  }

  /** Stops publishing `chain`; whether it was published. */
  async unpublish(chain: ChainEntry): Promise<boolean> {
    const publication = this.published.get(chain.id);
    if (publication === undefined) return false;
    this.published.delete(chain.id);
    await closePublication(await publication);
    return true;
  }

  /** IDs (cb58) of the published chains. */
  publishedChains(): string[] {
    return [...this.published.keys()];
  }

  /** Unpublishes every chain. */
  async close(): Promise<void> {
    const all = [...this.published.values()];
    this.published.clear();
    await Promise.all(all.map(async (p) => closePublication(await p).catch(() => undefined)));
  }

  private async open(chain: ChainEntry): Promise<Publication> {
    const consensus = await FramedSocketServer.listen(this.socketPath(chain, "consensus"), this.options);
    let decisions: FramedSocketServer;
    try {
      decisions = await FramedSocketServer.listen(this.socketPath(chain, "decisions"), this.options);
    } catch (error) {
      await consensus.close();
      throw error;
    }
    const { acceptance } = this.options;
    const stops = [
      acceptance.on(chain.alias, "consensus", (c) => consensus.send(c.bytes)),
      acceptance.on(chain.alias, "decisions", (c) => decisions.send(c.bytes)),
    ];
    return {
      chain,
      consensusURL: consensus.path,
      decisionsURL: decisions.path,
      sockets: [consensus, decisions],
      stop: () => stops.forEach((s) => s()),
    };
  }
}

async function closePublication(publication: Publication): Promise<void> {
  publication.stop();
  await Promise.all(publication.sockets.map((s) => s.close()));
}
