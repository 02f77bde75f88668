// `tsx scripts/check-leftovers.ts <labId>` (CHECK_ATTEMPTS=4 from the destroy hook): is anything of the lab left in
// AWS? Prints a table, exits 0 only when nothing is. Thin entry: names and region come from units/, the work from
// @loglake/teardown. The region-level S3 Tables integration is not the lab's and is never reported.
import { parseAttempts, parseLabId, runCheck } from '@loglake/teardown';
import { resolveLab } from '@loglake/units';

try {
  const labId = parseLabId(process.argv[2]);
  const lab = await resolveLab({ labId });
  const code = await runCheck(
    { labId, namePrefix: lab.namePrefix, region: process.env.AWS_REGION ?? lab.region },
    { attempts: parseAttempts(process.env.CHECK_ATTEMPTS) },
  );
  process.exit(code);
} catch (error) {
  // A message, not a stack trace: TeardownError and AWS SDK errors say what to do in their message.
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  process.exit(2);
}
