/**
 * The HTTP server's settings: the defaults, the checks of the options (each refused with a
 * RangeError naming it) and the state every request handler shares ({@link ServerContext}).
 */
import type { JsonRpcLimits } from "../../rpc/framing";
import { buildRouteTable, type RouteTable } from "./routing";
import type { Authorize, HttpNodeOptions, UpgradeHandler } from "./types";

/** Default port of a local node of the reference network. */
export const DEFAULT_PORT = 9650;
/** Default interface: loopback only, so test keys are not exposed to the network. */
export const DEFAULT_HOST = "127.0.0.1";
/** Default request body limit: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** What the handlers of one server read: its routes, limits and hooks, and whether it is closing. */
export interface ServerContext {
  readonly table: RouteTable;
  readonly maxBodyBytes: number;
  readonly limits: JsonRpcLimits;
  readonly authorize: Authorize | undefined;
  readonly upgrade: UpgradeHandler | undefined;
  readonly log: ((line: string) => void) | undefined;
  /** Set once `close()` began: every later answer asks the client to close its connection. */
  closing: boolean;
}

/** Where to listen, and the context of the handlers. */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  readonly context: ServerContext;
}

/** The settings of `options`, defaults filled in; throws a RangeError for a bad option. */
export function resolveSettings(options: HttpNodeOptions): ServerSettings {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${String(port)}`);
  }
  if (host === "") throw new RangeError("host must not be empty");
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new RangeError(`maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`);
  }
  checkOptionalPositive(options.maxBatchSize, "maxBatchSize");
  checkOptionalPositive(options.maxJsonDepth, "maxJsonDepth");
  return {
    host,
    port,
    context: {
      table: buildRouteTable(options),
      maxBodyBytes,
      limits: { maxBatchSize: options.maxBatchSize, maxJsonDepth: options.maxJsonDepth },
      authorize: options.authorize,
      upgrade: options.upgrade,
      log: options.log,
      closing: false,
    },
  };
}

function checkOptionalPositive(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}
