import { z } from 'zod';

/**
 * The building blocks of every input (docs/architecture.md, "A request, from the socket to the database",
 * step 2): strings refuse NUL characters (PostgreSQL cannot store them), integers carry their column's
 * real bounds, ids are positive safe integers. Routes and resource declarations build their request
 * schemas from these, so a new route gets the rules by using them; the server's input guard and error
 * handler are the last line behind them.
 */

export const INT16_MAX = 32_767;
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

const NUL = '\u0000';
export const NUL_REFUSED = 'must not contain NUL characters';
const noNul = (s: string) => !s.includes(NUL);

/** A trimmed string of at most `max` characters without NUL. */
export const text = (max = 10_000) => z.string().refine(noNul, NUL_REFUSED).trim().max(max);

/** A string kept as typed (passwords, secrets) of at most `max` characters without NUL. */
export const rawText = (max = 10_000) => z.string().refine(noNul, NUL_REFUSED).max(max);

/** An integer within `[min, max]`, never beyond a PostgreSQL `integer` column. */
export const int32 = (min = INT32_MIN, max = INT32_MAX) => z.number().int().min(Math.max(min, INT32_MIN)).max(Math.min(max, INT32_MAX));

/** An integer within `[min, max]`, never beyond a PostgreSQL `smallint` column. */
export const int16 = (min = -32_768, max = INT16_MAX) => z.number().int().min(Math.max(min, -32_768)).max(Math.min(max, INT16_MAX));

/** An amount in cents (a `bigint` column read as a JavaScript number): a safe integer within the bounds. */
export const bigintMoney = (min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  z.number().int().min(Math.max(min, -Number.MAX_SAFE_INTEGER)).max(Math.min(max, Number.MAX_SAFE_INTEGER));

/** The id of a `serial` row: a positive integer of the column's range. */
export const id = () => int32(1);

/** The id of a `bigserial` row: a positive safe integer. */
export const bigId = () => z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** A finite number within `[min, max]` (numeric columns: ratios, odds). */
export const decimal = (min = -1e15, max = 1e15) => z.number().min(min).max(max);

/** An instant with its offset, e.g. `2026-01-31T21:00:00Z`. */
export const dateTime = () => z.string().datetime({ offset: true });

// Query strings and path parameters carry text: the same rules, coerced from it.

/**
 * An integer as a query or path carries it: digits only, with an optional minus sign (" 1", "1 ", "1e3",
 * "0x10" and "1.0" are refused, not read as numbers); a number given as a number (an export's stored
 * parameters) passes as it is.
 */
const integerText = z.union([z.number(), z.string().regex(/^-?[0-9]{1,20}$/, 'an integer (digits only)')]);

/** An integer of a query or path parameter within an `integer` column's range. */
export const queryInt32 = (min = INT32_MIN, max = INT32_MAX) =>
  integerText.pipe(z.coerce.number<string | number>().int().min(Math.max(min, INT32_MIN)).max(Math.min(max, INT32_MAX)));

/** The id of a `serial` row in a query or path parameter. */
export const queryId = () => queryInt32(1);

/** The id of a `bigserial` row in a query or path parameter. */
export const queryBigId = () => integerText.pipe(z.coerce.number<string | number>().int().min(1).max(Number.MAX_SAFE_INTEGER));

/** The id path parameter of a `serial` row: `/:id`. */
export const idParams = z.object({ id: queryId() });

/** The id path parameter of a `bigserial` row: `/:id`. */
export const bigIdParams = z.object({ id: queryBigId() });
