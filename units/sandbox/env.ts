import { defineLevel } from '../lib/define';

// The sandbox environment: a throwaway account for labs.
export default defineLevel({ tags: { env: 'sandbox' } });
