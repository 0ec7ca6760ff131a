export * from './enums';
export * from './display';
export * from './locale';
export * from './labels';
export * from './messages';
export * from './money';
export * from './validation';
export * from './constants';
