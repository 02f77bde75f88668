// @loglake/lakehouse/testing: for other packages' tests and benches — the independent icebird reader (conformance),
// the engine's lower layers a test drives directly (table layout, snapshots, data files, statements) and DuckDbSession.
export { LocalWarehouse } from '../src/catalog/warehouse';
export { DuckDbSession } from '../src/duckdb/duckdb-session';
export { TableLayout } from '../src/io/table-layout';
export { snapshotFiles } from '../src/manifests/live-files';
export { branchHead, newTableMetadata } from '../src/metadata/table-metadata';
export { checkRequirements } from '../src/rest/requirements';
export { applyUpdates } from '../src/rest/updates';
export { produceSnapshot } from '../src/snapshots/snapshot-producer';
export { prepareStatement } from '../src/sql/engine';
export { writeDataFiles } from '../src/table/data-writer';
export { readLatestWithIcebird } from './conformance/icebird-reader';
