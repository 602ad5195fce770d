export { createSimulatedClient } from './simulated-client';
export { simulateResponse } from './responder';
