// The part of the contract the console needs at run time, without zod (keeps the shell bundle small).
export * from './menu.js';
export * from './resource.js';
export * from './resources.js';
export * from './money-resources.js';
export * from './sports-resources.js';
export * from './betting-resources.js';
export * from './statistics.js';
