export { createSimulatedClient, type SimulatedClientOptions } from './simulated-client';
export { simulateResponse, simulateFromPrompt } from './responder';
