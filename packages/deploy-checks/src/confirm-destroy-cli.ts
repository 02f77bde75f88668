// Entry of a region-level unit's destroy guard (runs first on destroy; exit non-zero stops the destroy).
import { requiredEnv } from './env';
import { confirmDestroy } from './confirm-destroy';

try {
  console.log(
    confirmDestroy(
      process.env,
      requiredEnv(process.env, 'UNIT', 'the unit being destroyed'),
      requiredEnv(process.env, 'CONSEQUENCE', 'what destroying it does'),
    ),
  );
} catch (error) {
  console.error(`${(error as Error).name}: ${(error as Error).message}`);
  process.exit(1);
}
