/** The shape of a translation file: same keys as en-US, any strings (tsc enforces every key in every language). */
export type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
