/**
 * The dataset worker: parses and checks dataset files off the page's thread, and keeps a
 * large dataset's cases for the page. All logic is in `datasetHandlers`; requests run one
 * after another, in the order they came.
 */
/// <reference lib="webworker" />
import { serveRpc } from '../worker-rpc';
import { datasetHandlers } from './dataset-load-handler';
import type { DatasetApi } from './dataset-load-protocol';

serveRpc<DatasetApi>(self as unknown as DedicatedWorkerGlobalScope, datasetHandlers());
