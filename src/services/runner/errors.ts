/**
 * The runner's refusals. Messages are the reference runner's where it has one ("not
 * bootstrapped", "already bootstrapped", "not enough nodes specified for start", "node not
 * found"), so clients that match on them work unchanged. The reference sends every refusal with
 * the gRPC code UNKNOWN (HTTP 500 on the gateway); nativekit gives each the code that says what
 * went wrong, in the same `{code, message, details}` shape: a wrong argument INVALID_ARGUMENT
 * (400), a call in the wrong state FAILED_PRECONDITION (400), an unknown node NOT_FOUND (404),
 * a taken name ALREADY_EXISTS (409), a network that did not get healthy in time
 * DEADLINE_EXCEEDED (504), a failed node or system call UNKNOWN (500).
 */
import { status as GrpcStatus } from "@grpc/grpc-js";

export const RunnerMessages = {
  notBootstrapped: "not bootstrapped",
  alreadyBootstrapped: "already bootstrapped",
  notEnoughNodes: "not enough nodes specified for start",
  nodeNotFound: "node not found",
} as const;

export class RunnerError extends Error {
  override readonly name = "RunnerError";
  constructor(
    readonly code: GrpcStatus,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP status grpc-gateway gives this code. */
  get httpStatus(): number {
    return httpStatusOf(this.code);
  }
}

export const notBootstrapped = () => new RunnerError(GrpcStatus.FAILED_PRECONDITION, RunnerMessages.notBootstrapped);
export const alreadyBootstrapped = () => new RunnerError(GrpcStatus.FAILED_PRECONDITION, RunnerMessages.alreadyBootstrapped);
export const nodeNotFound = (name: string) => new RunnerError(GrpcStatus.NOT_FOUND, `${RunnerMessages.nodeNotFound}: ${JSON.stringify(name)}`);
export const invalidArgument = (message: string) => new RunnerError(GrpcStatus.INVALID_ARGUMENT, message);
export const failedPrecondition = (message: string) => new RunnerError(GrpcStatus.FAILED_PRECONDITION, message);

/** Any error as a RunnerError: a refusal stays itself, anything else is UNKNOWN with its message. */
export function asRunnerError(error: unknown): RunnerError {
  if (error instanceof RunnerError) return error;
  return new RunnerError(GrpcStatus.UNKNOWN, error instanceof Error ? error.message : String(error));
}

/** grpc-gateway's mapping from gRPC codes to HTTP statuses. */
export function httpStatusOf(code: GrpcStatus): number {
  switch (code) {
    case GrpcStatus.OK:
      return 200;
    case GrpcStatus.CANCELLED:
      return 499;
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.OUT_OF_RANGE:
      return 400;
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 504;
    case GrpcStatus.NOT_FOUND:
      return 404;
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.ABORTED:
      return 409;
    case GrpcStatus.PERMISSION_DENIED:
      return 403;
    case GrpcStatus.UNAUTHENTICATED:
      return 401;
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcStatus.UNIMPLEMENTED:
      return 501;
    case GrpcStatus.UNAVAILABLE:
      return 503;
    default:
      return 500;
  }
}
