// Child process for the crash-safety tests: appends batches to a table forever (or until LOGLAKE_CRASH_AT
// kills it at a point of the commit protocol). Usage: crash-child.ts <dataDir> <table>
import { openWarehouse } from '../../src/catalog/warehouse';
import { flowRows } from './testing';

const [dataDir, name] = process.argv.slice(2);
if (!dataDir || !name) throw new Error('usage: crash-child.ts <dataDir> <table>');
const warehouse = await openWarehouse(dataDir);
const table = await warehouse.loadTable('lab', 'network', name);
for (let i = 0; ; i++) {
  await table.append({ rows: flowRows(10, 2, i * 10) });
  process.stdout.write(`committed ${i}\n`);
}
