export { createSimulatedClient, testSimulatedConnection } from './simulated-client';
export { simulateResponse } from './responder';
