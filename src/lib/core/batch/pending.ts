/** The rejection that parks a task in batch mode (see `client.ts`); the engine knows only this. */
export class BatchPending extends Error {
	override name = 'BatchPending';
	constructor(readonly customId: string) {
		super(`waiting for the batch answer of ${customId}`);
	}
}

/** The end of a batch-mode pass that parked tasks: the run waits for the next round. */
export class BatchWaiting extends Error {
	override name = 'BatchWaiting';
	constructor(readonly parked: number) {
		super(`${parked} tasks wait for the next batch round`);
	}
}
