// The engine's independent readers, for other packages' tests: icebird (a public Iceberg reader) reading a table
// the way an outside reader finds it. Not part of the engine's face (`@loglake/lakehouse`).
export { readLatestWithIcebird } from './icebird-reader';
