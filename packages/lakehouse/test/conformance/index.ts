// The engine's independent readers: icebird (a public Iceberg reader) reading a table the way an outside reader
// finds it. Other packages' tests reach it through `@loglake/lakehouse/testing` (test/index.ts).
export { readLatestWithIcebird } from './icebird-reader';
