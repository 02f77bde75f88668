// Shared CLI plumbing: user mistakes and AWS failures print a message and a hint, never a stack trace.
import { LabError } from './errors';

// Set LOGLAKE_DEBUG=1 to see stack traces of unexpected errors.

export async function runCli(main: () => Promise<number>): Promise<never> {
  let code: number;
  try {
    code = await main();
  } catch (error) {
    code = 1;
    if (error instanceof LabError) {
      console.error(`${error.name}: ${error.message}`);
    } else if (error instanceof Error) {
      // AWS service errors and other packages' errors carry their reason in the message; the stack only helps us.
      console.error(`${error.name}: ${error.message}`);
      if (process.env.LOGLAKE_DEBUG) console.error(error.stack);
    } else {
      console.error(String(error));
    }
  }
  process.exit(code);
}
