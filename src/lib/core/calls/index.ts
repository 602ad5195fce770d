export * from './schema';
export * from './log';
export * from './types';
export * from './totals';
export * from './select';
