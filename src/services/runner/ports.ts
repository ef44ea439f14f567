/**
 * Ports of the nodes: the reference's fixed layout (HTTP 9650, staking 9651, then +2 per node),
 * or free ports the system picks (`dynamicPorts`). A fixed port already taken is refused unless
 * `reassignPortsIfUsed`, which replaces it with a free one. Ports are checked on 127.0.0.1, where
 * the nodes listen; a port found free can still be taken before the node binds it.
 */
import net from "node:net";
import { failedPrecondition } from "./errors";

export const FIRST_HTTP_PORT = 9650;

export interface NodePorts {
  readonly httpPort: number;
  readonly stakingPort: number;
}

export interface PortChoice {
  dynamicPorts: boolean;
  reassignPortsIfUsed: boolean;
}

/** A port the system reports free on 127.0.0.1 (bound to 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on `port` of 127.0.0.1. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * Ports for `count` new nodes, none of them in `taken` (the ports of the network's other nodes).
 * Fixed ports continue the layout after the highest taken HTTP port.
 */
export async function choosePorts(count: number, choice: PortChoice, taken: readonly NodePorts[]): Promise<NodePorts[]> {
  const used = new Set(taken.flatMap((p) => [p.httpPort, p.stakingPort]));
  const fresh = async (): Promise<number> => {
    for (;;) {
      const port = await freePort();
      if (!used.has(port)) {
        used.add(port);
        return port;
      }
    }
  };
  const fixed = async (port: number): Promise<number> => {
    if (!used.has(port) && (await portIsFree(port))) {
      used.add(port);
      return port;
    }
    if (choice.reassignPortsIfUsed) return fresh();
    throw failedPrecondition(`port ${port} is already in use (pass reassignPortsIfUsed or dynamicPorts)`);
  };
  const result: NodePorts[] = [];
  let nextFixed = Math.max(FIRST_HTTP_PORT - 2, ...taken.map((p) => p.httpPort)) + 2;
  for (let i = 0; i < count; i++) {
    if (choice.dynamicPorts) {
      result.push({ httpPort: await fresh(), stakingPort: await fresh() });
    } else {
      result.push({ httpPort: await fixed(nextFixed), stakingPort: await fixed(nextFixed + 1) });
      nextFixed += 2;
    }
  }
  return result;
}
