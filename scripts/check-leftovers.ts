// `tsx scripts/check-leftovers.ts <labId>` (CHECK_ATTEMPTS=4 from the destroy hook): is anything of the lab left in
// AWS? Prints a table, exits 0 only when nothing is. Thin entry: names and region come from units/, the work from
// @loglake/teardown.
import { parseAttempts, parseLabId, runCheck, TeardownError } from '../packages/teardown/src/index';
import { resolveLab } from '../units/index';

try {
  const labId = parseLabId(process.argv[2]);
  const lab = await resolveLab({ labId });
  const code = await runCheck(
    {
      labId,
      namePrefix: lab.namePrefix,
      region: process.env.AWS_REGION ?? lab.region,
      glueCatalogManaged: lab.units['table-bucket'].inputs.glueCatalog.manage,
    },
    { attempts: parseAttempts(process.env.CHECK_ATTEMPTS) },
  );
  process.exit(code);
} catch (error) {
  const e = error as Error;
  console.error(
    e instanceof TeardownError || e.name.endsWith('Error') ? `${e.name}: ${e.message}` : String(e),
  );
  process.exit(2);
}
