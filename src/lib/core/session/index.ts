/** The run session: the one way to start work (`openSession`), and what it reports. */
export * from './session';
export { SessionScheduler, type TaskRoom } from './scheduler';
export {
	isPlanSpendStore,
	parsePlanSpend,
	type PlanSpend,
	type PlanSpendStore,
	type SpendView
} from './spend';
