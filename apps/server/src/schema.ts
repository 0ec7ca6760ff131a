// The platform's and every module's slice of the schema, for drizzle's relational queries and the migration generator.
export * from './platform/schema.js';
export * from './modules/system/schema.js';
export * from './modules/auth/schema.js';
export * from './modules/money/schema.js';
export * from './modules/payments/schema.js';
export * from './modules/sports/schema.js';
export * from './modules/feed/schema.js';
export * from './modules/jackpot/schema.js';
export * from './modules/casino/schema.js';
export * from './modules/racing/schema.js';
export * from './modules/casino-sandbox/schema.js';
export * from './modules/tron/schema.js';
export * from './modules/tron/sandbox-schema.js';
export * from './modules/operations/schema.js';
export * from './modules/sms/schema.js';
export * from './modules/promotions/schema.js';
