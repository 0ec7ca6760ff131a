import type { MessageCode } from '@dau/domain';

/**
 * A refusal the client can act on: status, a stable code from the domain's message catalogue, the text
 * in the caller's language (filled by the error handler), and optional details (e.g. which field).
 */
export class AppError extends Error {
  constructor(
    public status: number,
    public code: MessageCode,
    public params: Record<string, string | number> = {},
    public details?: unknown,
  ) {
    super(code);
  }
}

export const badRequest = (code: MessageCode = 'PARAM_INVALID', details?: unknown, params?: Record<string, string | number>) =>
  new AppError(400, code, params, details);
export const unauthorized = (code: MessageCode = 'UNAUTHORIZED') => new AppError(401, code);
export const forbidden = (code: MessageCode = 'FORBIDDEN') => new AppError(403, code);
export const notFound = () => new AppError(404, 'NOT_FOUND');
export const conflict = (code: MessageCode = 'CONFLICT', params?: Record<string, string | number>) => new AppError(409, code, params);
export const unprocessable = (code: MessageCode, params?: Record<string, string | number>) => new AppError(422, code, params);
export const tooMany = (code: MessageCode = 'TOO_MANY_REQUESTS', params?: Record<string, string | number>) =>
  new AppError(429, code, params);
