// Shared CLI plumbing: user mistakes and AWS failures print a message and a hint, never a stack trace.
import { LabError } from './errors';

export async function runCli(main: () => Promise<number>): Promise<never> {
  let code: number;
  try {
    code = await main();
  } catch (error) {
    code = 1;
    if (error instanceof LabError) {
      console.error(`${error.name}: ${error.message}`);
    } else if (error instanceof Error && typeof (error as { $metadata?: unknown }).$metadata === 'object') {
      // An AWS service error: its message is the service's own reason.
      console.error(`${error.name}: ${error.message}`);
    } else {
      console.error(error);
    }
  }
  process.exit(code);
}
