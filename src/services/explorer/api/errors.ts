/**
 * The API's one error shape, `{"code": <HTTP status>, "message": "…"}`: 400 for input the API
 * cannot read (the message names the parameter and what it accepts), 404 for an unknown ID or
 * path (the message says what was not found), 405 for a method other than GET.
 */
export type ExplorerApiStatus = 400 | 404 | 405 | 500;

export class ExplorerApiError extends Error {
  constructor(
    readonly status: ExplorerApiStatus,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string } {
    return { code: this.status, message: this.message };
  }
}

export function badParameter(message: string): ExplorerApiError {
  return new ExplorerApiError(400, message);
}

export function notFound(message: string): ExplorerApiError {
  return new ExplorerApiError(404, message);
}
