export { createSimulatedClient, type SimulatedClientOptions } from './simulated-client';
export { simulateResponse, simulateFromPrompt } from './responder';
export {
	SIMULATED_PROFILES,
	simulatedProfile,
	type SimulatedProfile,
	type SimulatedProfileName
} from './profiles';
