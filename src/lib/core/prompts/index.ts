export * from './pack';
export * from './fill';
export * from './hashes';
export { DEFAULT_PROMPT_PACK } from './default-pack';
