/** Metrics of SPEC §7 as pure functions over saved records, for the CLI and the browser charts. */
export * from './types';
export { ratio } from './ratio';
export { lcaConfusion, lcaFromConfusion, lcaMetrics, type LcaConfusion } from './lca';
export { dcgMetrics } from './dcg';
export { ljpMetrics, quadraticWeightedKappa } from './ljp';
export { classOf, orderClasses, splitByClass } from './by-class';
export { aggregateTrees, mean, sampleSd, type Aggregate } from './aggregate';
export { comparabilityKey, groupComparable } from './groups';
