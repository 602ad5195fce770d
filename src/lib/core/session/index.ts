/** The run session: the one way to start work (`openSession`), and what it reports. */
export * from './session';
export { isPlanSpendStore } from './spend';
