import { defineLevel } from '../../lib/define';

// The region comes from the folder name; this level only adds what is regional.
export default defineLevel({});
